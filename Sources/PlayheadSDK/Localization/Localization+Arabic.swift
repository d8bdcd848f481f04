import Foundation

// The SDK's strings in ar. Every table has every key (LocalizationTests checks).

extension Localization {
  static let arabic: [LocalizedStringKey: String] = [
    .auto: "تلقائي",
    .off: "إيقاف",
    .unknownLanguage: "لغة غير معروفة",
    .subtitles: "الترجمة",
    .audio: "الصوت",
    .quality: "الجودة",
    .live: "مباشر",
    .play: "تشغيل",
    .pause: "إيقاف مؤقت",
    .jumpBack: "رجوع",
    .fullScreen: "ملء الشاشة",
    .exitFullScreen: "الخروج من ملء الشاشة",
    .currentTime: "الوقت الحالي",
    .totalTime: "المدة الإجمالية",
    .timeline: "المخطط الزمني",
    .advertisement: "إعلان",
    .adPosition: "إعلان {n} من {count}",
    .skipAdCountdown: "التخطي بعد {seconds}",
    .skipAd: "تخطي الإعلان",
    .learnMore: "مزيد من المعلومات",
    .errorNoPlayableSource: "لا يمكن تشغيل هذا الفيديو.",
    .errorNetwork: "فشل الاتصال بالشبكة. تحقق من اتصالك وحاول مرة أخرى.",
    .errorTimedOut: "استغرق الخادم وقتًا طويلاً للرد.",
    .errorNotFound: "تعذر العثور على هذا الفيديو.",
    .errorAccessDenied: "غير مسموح لك بمشاهدة هذا الفيديو.",
    .errorUnsupportedFormat: "تنسيق الفيديو هذا غير مدعوم.",
    .errorDecryption: "تعذر فك تشفير هذا الفيديو.",
    .errorPlayback: "حدث خطأ أثناء التشغيل.",
  ]
}
