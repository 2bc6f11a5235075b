/// The filters a template may use: Shopify's standard filters (with their
/// semantics) and Braze's `time_zone`. An unknown filter is a parse error,
/// so that a misspelt name is found when the document loads rather than
/// passing its input through unnoticed.
enum Filter: String, Sendable, CaseIterable {
    // Strings
    case append, prepend, capitalize, downcase, upcase, escape
    case escapeOnce = "escape_once"
    case lstrip, rstrip, strip
    case stripHTML = "strip_html"
    case stripNewlines = "strip_newlines"
    case newlineToBR = "newline_to_br"
    case remove
    case removeFirst = "remove_first"
    case removeLast = "remove_last"
    case replace
    case replaceFirst = "replace_first"
    case replaceLast = "replace_last"
    case slice, split, truncate, truncatewords
    case urlEncode = "url_encode"
    case urlDecode = "url_decode"
    case base64Encode = "base64_encode"
    case base64Decode = "base64_decode"
    case base64URLSafeEncode = "base64_url_safe_encode"
    case base64URLSafeDecode = "base64_url_safe_decode"
    case size
    // Arrays
    case join, first, last, concat, map, reverse, sort
    case sortNatural = "sort_natural"
    case uniq, compact, `where`, reject, has, find
    case findIndex = "find_index"
    case sum
    // Numbers
    case abs, ceil, floor, round, plus, minus, times
    case dividedBy = "divided_by"
    case modulo
    case atLeast = "at_least"
    case atMost = "at_most"
    // Dates
    case date
    case timeZone = "time_zone"
    // Default
    case `default`

    /// How many positional arguments the filter takes.
    var arity: ClosedRange<Int> {
        switch self {
        case .append, .prepend, .remove, .removeFirst, .removeLast, .split, .concat, .map,
            .plus, .minus, .times, .dividedBy, .modulo, .atLeast, .atMost, .date, .timeZone:
            return 1...1
        case .replace, .replaceFirst, .slice, .where, .reject, .has, .find, .findIndex:
            return 1...2
        case .replaceLast:
            return 2...2
        case .truncate, .truncatewords:
            return 0...2
        case .join, .sort, .sortNatural, .uniq, .compact, .sum, .round, .default:
            return 0...1
        default:
            return 0...0
        }
    }

    /// The keyword arguments the filter accepts.
    var keywords: Set<String> {
        self == .default ? ["allow_false"] : []
    }
}
