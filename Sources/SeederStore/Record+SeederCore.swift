import SeederCore
import SeederFiles

/// SeederCore's record, not GRDB's `Record` class.
typealias Record = SeederCore.Record
