/// The file name a finding's trace is saved under, by `fuzz` and by `merge` alike:
/// `<scenario>-<variant>-<oracle as a slug><suffix>.simtrace` (distinct failures of one oracle get
/// the suffixes -2, -3, … so none overwrites another).
package func findingFileName(_ scenario: String, _ variant: String, oracle: String, suffix: String) -> String {
    let mapped = oracle.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
    let slug = String(mapped).split(separator: "-").joined(separator: "-")
    return "\(scenario)-\(variant)-\(slug)\(suffix).simtrace"
}
