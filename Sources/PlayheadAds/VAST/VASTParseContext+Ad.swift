import PlayheadCore

extension VASTParseContext {
  /// One `<Ad>`; nil (with a warning) when it has neither `<InLine>` nor `<Wrapper>`, or a
  /// Wrapper without a tag URI.
  mutating func ad(_ element: AdXMLElement, path: String) -> VASTAd? {
    let body: AdXMLElement
    let kind: VASTAd.Kind
    if let inLine = element.child("InLine") {
      body = inLine
      kind = .inLine
    } else if let wrapperElement = element.child("Wrapper") {
      body = wrapperElement
      let bodyPath = path + "/Wrapper"
      var uri = wrapperElement.childText("VASTAdTagURI")
      var isLegacy = false
      if uri == nil, let legacy = wrapperElement.child("VASTAdTagURL") {
        uri = legacy.childText("URL") ?? (legacy.text.isEmpty ? nil : legacy.text)
        isLegacy = uri != nil
        if isLegacy { warn(bodyPath, "VAST 1 <VASTAdTagURL><URL> read as the tag URI") }
      }
      guard let uri else {
        warn(bodyPath, "Wrapper without <VASTAdTagURI> dropped")
        return nil
      }
      kind = .wrapper(
        VASTWrapper(
          adTagURI: uri,
          followAdditionalWrappers: bool(wrapperElement, "followAdditionalWrappers", path: bodyPath)
            ?? true,
          allowMultipleAds: bool(wrapperElement, "allowMultipleAds", path: bodyPath) ?? false,
          fallbackOnNoAd: bool(wrapperElement, "fallbackOnNoAd", path: bodyPath),
          isLegacyTag: isLegacy))
    } else {
      warn(path, "<Ad> without <InLine> or <Wrapper> dropped")
      return nil
    }
    let bodyPath = path + "/" + body.name
    var ad = VASTAd(id: element.attribute("id"), kind: kind)
    ad.sequence = int(element, "sequence", path: path)
    ad.conditionalAd = bool(element, "conditionalAd", path: path)
    ad.adType = element.attribute("adType")
    ad.adSystem = body.childText("AdSystem")
    ad.adTitle = body.childText("AdTitle")
    ad.adDescription = body.childText("Description")
    ad.advertiser = body.childText("Advertiser")
    ad.impressions = Self.urls(body.children("Impression"))
    ad.errorURLs = Self.urls(body.children("Error"))
    ad.creatives = body.children(of: "Creatives", named: "Creative").enumerated().map {
      creative($0.element, path: "\(bodyPath)/Creatives/Creative[\($0.offset + 1)]")
    }
    ad.verifications = body.children(of: "AdVerifications", named: "Verification").map {
      verification($0, path: bodyPath + "/AdVerifications")
    }
    let extensions = body.children(of: "Extensions", named: "Extension")
    ad.extensions = extensions.map(\.xmlString)
    // VAST 3 and 4.0 carried verifications in an extension.
    for holder in extensions where holder.attribute("type") == "AdVerifications" {
      for verificationElement in holder.children(of: "AdVerifications", named: "Verification") {
        ad.verifications.append(verification(verificationElement, path: bodyPath + "/Extensions"))
      }
    }
    return ad
  }

  mutating func verification(_ element: AdXMLElement, path: String) -> VASTVerification {
    VASTVerification(
      vendor: element.attribute("vendor"),
      javaScriptResources: Self.urls(element.children("JavaScriptResource")),
      executableResources: Self.urls(element.children("ExecutableResource")),
      parameters: element.childText("VerificationParameters"),
      trackingEvents: tracking(element, path: path))
  }
}
