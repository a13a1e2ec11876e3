extension LoadContext {
    /// A `match:` value compiled (docs/mapping.md, Values inside text); `nil` after its error at
    /// the node: not a string, empty (which matches "" in every value), not a pattern (PCRE2's
    /// reason and offset), more than one group.
    func textPattern(_ node: YAMLNode) -> TextPattern? {
        guard let source = string(node, key: "match") else { return nil }
        guard !source.isEmpty else {
            error(.mappingInvalid, "'match' is empty; write the pattern whose match, or first group, is the value", at: node)
            return nil
        }
        do {
            return try TextPattern(source)
        } catch {
            self.error(.mappingInvalid, "invalid 'match' pattern '\(source)': \(error.message)", at: node)
            return nil
        }
    }
}
