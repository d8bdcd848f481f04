import Foundation

/// The reason phrases of HTTP status codes, shared by the client's error messages and the test server.
public enum HTTPStatusText {
  /// The standard reason phrase for `status` (RFC 9110), or nil for a code it does not list.
  public static func reasonPhrase(_ status: Int) -> String? {
    switch status {
    case 200: return "OK"
    case 204: return "No Content"
    case 206: return "Partial Content"
    case 300: return "Multiple Choices"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 304: return "Not Modified"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 410: return "Gone"
    case 416: return "Range Not Satisfiable"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return nil
    }
  }
}
