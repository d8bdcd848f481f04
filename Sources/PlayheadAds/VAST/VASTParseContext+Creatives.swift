import PlayheadCore

extension VASTParseContext {
  /// One `<Creative>` with its Linear, NonLinearAds or CompanionAds part.
  mutating func creative(_ element: AdXMLElement, path: String) -> VASTCreative {
    var creative = VASTCreative(
      id: element.attribute("id"), sequence: int(element, "sequence", path: path),
      adID: element.attribute("adId") ?? element.attribute("AdID"))
    creative.universalAdIDs = element.children("UniversalAdId").compactMap { id in
      id.text.isEmpty
        ? nil : VASTUniversalAdID(idRegistry: id.attribute("idRegistry"), value: id.text)
    }
    if let linearElement = element.child("Linear") {
      creative.linear = linear(linearElement, path: path + "/Linear")
    }
    if let nonLinearElement = element.child("NonLinearAds") {
      creative.nonLinearAds = nonLinearAds(nonLinearElement, path: path + "/NonLinearAds")
    }
    if let companionElement = element.child("CompanionAds") {
      creative.companionAds = companionAds(companionElement, path: path + "/CompanionAds")
    }
    return creative
  }

  mutating func linear(_ element: AdXMLElement, path: String) -> VASTLinear {
    var linear = VASTLinear()
    if let text = element.childText("Duration") {
      linear.durationText = text
      linear.duration = VASTTime.parse(text)
      if linear.duration == nil { warn(path + "/Duration", "\"\(text)\" is not a duration") }
    }
    if let text = element.attribute("skipoffset") {
      linear.skipOffset = VASTOffset(text)
      if linear.skipOffset == nil {
        warn(path, "skipoffset \"\(text)\" is not a time or a percentage")
      }
    }
    let mediaFiles = element.child("MediaFiles")
    linear.mediaFiles = (mediaFiles?.children("MediaFile") ?? []).compactMap { file in
      mediaFile(file, path: path + "/MediaFiles/MediaFile")
    }
    linear.mezzanines = (mediaFiles?.children("Mezzanine") ?? []).compactMap { file in
      file.text.isEmpty
        ? nil
        : VASTMezzanine(
          url: file.text, delivery: file.attribute("delivery"), type: file.attribute("type"),
          width: int(file, "width", path: path), height: int(file, "height", path: path),
          codec: file.attribute("codec"))
    }
    linear.interactiveCreativeFiles = (mediaFiles?.children("InteractiveCreativeFile") ?? [])
      .compactMap { file in
        file.text.isEmpty
          ? nil
          : VASTInteractiveCreativeFile(
            url: file.text, type: file.attribute("type"),
            apiFramework: file.attribute("apiFramework"),
            variableDuration: bool(file, "variableDuration", path: path))
      }
    linear.trackingEvents = tracking(element, path: path + "/TrackingEvents")
    if let clicks = element.child("VideoClicks") {
      linear.videoClicks = VASTVideoClicks(
        clickThrough: clicks.childText("ClickThrough"),
        clickTracking: Self.urls(clicks.children("ClickTracking")),
        customClicks: Self.urls(clicks.children("CustomClick")))
    }
    linear.adParameters = Self.adParameters(element)
    linear.icons = element.children(of: "Icons", named: "Icon").map {
      icon($0, path: path + "/Icons/Icon")
    }
    return linear
  }

  mutating func mediaFile(_ element: AdXMLElement, path: String) -> VASTMediaFile? {
    guard !element.text.isEmpty else {
      warn(path, "MediaFile without a URL dropped")
      return nil
    }
    return VASTMediaFile(
      url: element.text, id: element.attribute("id"), delivery: element.attribute("delivery"),
      type: element.attribute("type"), width: int(element, "width", path: path),
      height: int(element, "height", path: path),
      bitrateKbps: int(element, "bitrate", path: path),
      minBitrateKbps: int(element, "minBitrate", path: path),
      maxBitrateKbps: int(element, "maxBitrate", path: path), codec: element.attribute("codec"),
      apiFramework: element.attribute("apiFramework"),
      scalable: bool(element, "scalable", path: path),
      maintainAspectRatio: bool(element, "maintainAspectRatio", path: path))
  }

  mutating func icon(_ element: AdXMLElement, path: String) -> VASTIcon {
    VASTIcon(
      program: element.attribute("program"), width: int(element, "width", path: path),
      height: int(element, "height", path: path), xPosition: element.attribute("xPosition"),
      yPosition: element.attribute("yPosition"),
      duration: element.attribute("duration").flatMap(VASTTime.parse),
      offset: element.attribute("offset").flatMap(VASTTime.parse),
      apiFramework: element.attribute("apiFramework"), resources: Self.resources(element),
      clickThrough: element.child("IconClicks")?.childText("IconClickThrough"),
      clickTracking: Self.urls(element.child("IconClicks")?.children("IconClickTracking") ?? []),
      viewTracking: Self.urls(element.children("IconViewTracking")))
  }

  mutating func nonLinearAds(_ element: AdXMLElement, path: String) -> VASTNonLinearAds {
    VASTNonLinearAds(
      nonLinears: element.children("NonLinear").map { nonLinear in
        VASTNonLinear(
          id: nonLinear.attribute("id"), width: int(nonLinear, "width", path: path),
          height: int(nonLinear, "height", path: path),
          minSuggestedDuration: nonLinear.attribute("minSuggestedDuration"),
          apiFramework: nonLinear.attribute("apiFramework"),
          resources: Self.resources(nonLinear),
          clickThrough: nonLinear.childText("NonLinearClickThrough"),
          clickTracking: Self.urls(nonLinear.children("NonLinearClickTracking")),
          adParameters: Self.adParameters(nonLinear))
      },
      trackingEvents: tracking(element, path: path + "/TrackingEvents"))
  }

  mutating func companionAds(_ element: AdXMLElement, path: String) -> VASTCompanionAds {
    VASTCompanionAds(
      required: element.attribute("required"),
      companions: element.children("Companion").map { companion in
        VASTCompanion(
          id: companion.attribute("id"), width: int(companion, "width", path: path),
          height: int(companion, "height", path: path), adSlotID: companion.attribute("adSlotID"),
          apiFramework: companion.attribute("apiFramework"),
          resources: Self.resources(companion),
          clickThrough: companion.childText("CompanionClickThrough"),
          clickTracking: Self.urls(companion.children("CompanionClickTracking")),
          trackingEvents: tracking(companion, path: path + "/Companion/TrackingEvents"),
          altText: companion.childText("AltText"))
      })
  }
}
