import Foundation
import PlayheadTestSupport
import XCTest

@testable import PlayheadCore

/// The logging API (swift-log's shape): levels, the cost of a disabled level, metadata as
/// a value, the bootstrap's factory.
final class LoggerTests: XCTestCase {
  func testLevels_orderBySeverity_andEncodeAsTheirNames() throws {
    XCTAssertEqual(
      Logger.Level.allCases, [.trace, .debug, .info, .notice, .warning, .error, .critical])
    XCTAssertEqual(Logger.Level.allCases.sorted(), Logger.Level.allCases)
    XCTAssertLessThan(Logger.Level.debug, .info)
    XCTAssertGreaterThan(Logger.Level.critical, .error)
    let encoded = try JSONEncoder().encode([Logger.Level.warning])
    XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["warning"]"#)
    XCTAssertEqual(try JSONDecoder().decode([Logger.Level].self, from: encoded), [.warning])
  }

  func testLog_belowTheLevel_recordsNothingAndEvaluatesNeitherMessageNorMetadata() {
    let handler = InMemoryLogHandler()
    let logger = handler.logger(label: "test", level: .info)
    let evaluations = Locked(0)
    func message() -> Logger.Message {
      evaluations.withLock { $0 += 1 }
      return "expensive"
    }
    func metadata() -> Logger.Metadata {
      evaluations.withLock { $0 += 1 }
      return ["key": "value"]
    }
    logger.debug(message(), metadata: metadata())
    logger.trace(message(), metadata: metadata())
    logger.log(level: .debug, message(), metadata: metadata())
    XCTAssertEqual(evaluations.value, 0, "a disabled level evaluated its arguments")
    XCTAssertTrue(handler.entries.isEmpty)

    logger.info(message(), metadata: metadata())
    XCTAssertEqual(evaluations.value, 2)
    XCTAssertEqual(
      handler.entries,
      [
        InMemoryLogHandler.Entry(
          level: .info, label: "test", message: "expensive", metadata: ["key": "value"],
          source: "PlayheadCoreTests")
      ])
  }

  func testEachLevelFunction_logsAtItsLevel() {
    let handler = InMemoryLogHandler()
    let logger = handler.logger(label: "test")
    logger.trace("t")
    logger.debug("d")
    logger.info("i")
    logger.notice("n")
    logger.warning("w")
    logger.error("e")
    logger.critical("c")
    XCTAssertEqual(handler.entries.map(\.level), Logger.Level.allCases)
    XCTAssertEqual(handler.entries.map(\.message), ["t", "d", "i", "n", "w", "e", "c"])
  }

  func testMetadata_isAValuePerLoggerCopy_andTheEntrysOwnWins() {
    let handler = InMemoryLogHandler()
    var first = handler.logger(label: "first")
    first.logLevel = .debug
    first[metadataKey: "only-on"] = "first"
    first[metadataKey: "shared"] = "logger"
    var second = first
    second.logLevel = .error
    second[metadataKey: "only-on"] = "second"
    XCTAssertEqual(first.logLevel, .debug)
    XCTAssertEqual(second.logLevel, .error)
    XCTAssertEqual(first[metadataKey: "only-on"], "first")
    XCTAssertEqual(second[metadataKey: "only-on"], "second")

    first.debug("entry", metadata: ["shared": "entry", "extra": .array(["1", "2"])])
    second.debug("dropped")
    XCTAssertEqual(handler.entries.count, 1)
    XCTAssertEqual(
      handler.entries.first?.metadata,
      ["only-on": "first", "shared": "entry", "extra": .array(["1", "2"])])
  }

  func testSource_defaultsToTheModuleOfTheFile_andCanBeGiven() {
    let handler = InMemoryLogHandler()
    let logger = handler.logger(label: "test")
    logger.info("default")
    logger.info("given", source: "Elsewhere")
    logger.log(level: .info, "from an id", file: "SomeModule/File.swift")
    XCTAssertEqual(handler.entries.map(\.source), ["PlayheadCoreTests", "Elsewhere", "SomeModule"])
  }

  func testMetadataValues_describeThemselves_andCompareByDescription() {
    let nested: Logger.MetadataValue = ["numbers": ["1", "2"], "name": "x"]
    XCTAssertEqual(Logger.MetadataValue.string("plain").description, "plain")
    XCTAssertEqual(Logger.MetadataValue.stringConvertible(42).description, "42")
    XCTAssertEqual(Logger.MetadataValue.array(["a", "b"]).description, #"["a", "b"]"#)
    XCTAssertEqual(nested, .dictionary(["numbers": .array(["1", "2"]), "name": .string("x")]))
    XCTAssertEqual(Logger.MetadataValue.stringConvertible(7), .stringConvertible("7"))
    XCTAssertNotEqual(Logger.MetadataValue.string("7"), .stringConvertible(7))
    let level = 3
    let interpolated: Logger.MetadataValue = "level \(level)"
    XCTAssertEqual(interpolated, .string("level 3"))
    let message: Logger.Message = "decision \(level)"
    XCTAssertEqual(message.description, "decision 3")
  }

  func testLoggerWithAFactory_usesItsHandler_whateverTheSystemsFactory() {
    let handler = InMemoryLogHandler()
    let logger = Logger(label: "made") { label in
      var copy = handler
      copy.label = label
      return copy
    }
    XCTAssertEqual(logger.label, "made")
    logger.warning("hello")
    XCTAssertEqual(handler.entries.map(\.label), ["made"])
    XCTAssertEqual(logger.logLevel, .trace)
  }

  func testDefaultFactory_isTheStandardErrorTextHandlerAtWarning() throws {
    let logger = Logger(label: "default")
    let handler = try XCTUnwrap(logger.handler as? TextLogHandler)
    XCTAssertEqual(handler.label, "default")
    XCTAssertEqual(logger.logLevel, .warning)
  }

  func testBootstrappedFactory_makesTheHandlersOfLaterLoggers() {
    let handler = InMemoryLogHandler()
    LoggingSystem.bootstrapInternal { label in
      var copy = handler
      copy.label = label
      return copy
    }
    defer {
      LoggingSystem.bootstrapInternal { label in TextLogHandler.standardError(label: label) }
    }
    Logger(label: "after").error("boom")
    XCTAssertEqual(handler.entries.map(\.label), ["after"])
    XCTAssertEqual(handler.entries.map(\.message), ["boom"])
  }
}
