//! Markdown tables, as every report section prints them.

/// A markdown table: a header row, the rule, and one line per row.
pub fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let mut s = line(header);
    s += &format!("|{}\n", "---|".repeat(header.len()));
    for r in rows {
        s += &line(r);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_header_rule_and_rows() {
        let h = ["a".to_string(), "b".to_string()];
        let rows = vec![vec!["1".to_string(), "2".to_string()]];
        assert_eq!(super::table(&h, &rows), "| a | b |\n|---|---|\n| 1 | 2 |\n");
    }
}
