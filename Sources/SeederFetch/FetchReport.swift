import SeederCore

/// What a fetch did, for the command to print (docs/commands.md, fetch; docs/json.md).
public struct FetchReport: Sendable {
    /// `invalid`: a body or the mapping is not what fetch reads; `failed`: the service or a file
    /// failed.
    public var outcome: RunOutcome = .success
    public var diagnostics: [Diagnostic] = []
    public var sources: [SourceSummary] = []
    /// The dumps directory, as given.
    public var dumps: String
    /// Whether anything in DUMPS changed (files moved in or removed, the manifest rewritten).
    public var changedDumps = false

    /// One fetched source's counts.
    public struct SourceSummary: Sendable {
        /// The source's `path`.
        public var path: String
        /// Pages whose body the server sent (status 200); of those, `written` changed a file.
        public var pagesFetched = 0
        public var pagesWritten = 0
        /// Pages the server said were unchanged (304).
        public var pagesUnchanged = 0
        /// Pages that were in DUMPS and are gone from the service.
        public var pagesRemoved = 0
        /// Children of `each` that answered 404 or 410 under `missing: skip`.
        public var missing = 0
        /// Records at the source's `keyPath`, over every page.
        public var records = 0
        /// Bytes of the bodies received.
        public var bytes = 0
        public var requests = 0
        public var retries = 0
        /// The total the service announced (`total`, `pages`), when it did.
        public var expectedPages: Int?
    }

    public init(dumps: String) {
        self.dumps = dumps
    }

    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
}

/// A progress snapshot, sent every time a page is done.
public struct FetchProgress: Sendable {
    public var source: String
    public var pages: Int
    public var expectedPages: Int?
    public var records: Int
    public var bytes: Int
    public var requests: Int
}
