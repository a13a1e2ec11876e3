extension SeedInstaller {
    /// What a patch does when a change of the changeset meets a row the app changed
    /// (docs/guides/updating-an-installed-seed.md, Conflicts).
    public enum ConflictPolicy: Sendable {
        /// The seed's rows win: a row the app changed or inserted under the seed's key takes the
        /// seed's values; a row the app deleted stays deleted. A broken constraint aborts. A row
        /// the patch leaves pointing at nothing is deleted.
        case seedWins
        /// The app's rows win: every conflicting change is skipped. A row the patch leaves
        /// pointing at nothing is deleted.
        case appWins
        /// Any conflict abandons the patch, leaving the working copy as it was; the app may then
        /// call `replace()`.
        case abort

        /// What the policy does about a conflict of `kind`.
        func resolution(of kind: SeedInstallation.ConflictKind) -> SeedInstallation.Resolution {
            switch (self, kind) {
            case (.seedWins, .data), (.seedWins, .conflict): return .seedRow
            case (.seedWins, .notFound): return .omitted
            case (.appWins, .data), (.appWins, .notFound), (.appWins, .conflict), (.appWins, .constraint): return .omitted
            case (.seedWins, .foreignKey), (.appWins, .foreignKey): return .deleted
            default: return .aborted
            }
        }
    }
}
