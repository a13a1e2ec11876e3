import SeederCore
import SeederFiles

/// Rows of cells as aligned columns two spaces apart, for summaries printed to people.
package enum TextTable {
    /// The rows as lines; the columns in `rightAligned` are flush right, the others flush left
    /// (a left-aligned last column is not padded). Each line ends with a newline. Cells hold
    /// names and values: each is escaped (`PrintedText.escaped`), so it stays in its row.
    package static func render(_ rows: [[String]], rightAligned: Set<Int>) -> String {
        let rows = rows.map { $0.map(PrintedText.escaped) }
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                if rightAligned.contains(index) { return pad + cell }
                return index == row.count - 1 ? cell : cell + pad
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
