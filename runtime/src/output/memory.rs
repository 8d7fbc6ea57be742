//! An in-memory sink: the rows of a run kept as columns of `f64` (for embedding layers such as
//! the Python package, which hands each column to numpy without a copy per row).

use super::{RowSink, TargetError};

/// Columns of a run kept in memory, optionally only some of them.
#[derive(Debug, Clone, Default)]
pub struct ColumnTable {
    names: Vec<String>,
    keep: Vec<usize>,
    columns: Vec<Vec<f64>>,
}

impl ColumnTable {
    /// A table of the columns of `header` named in `record` (all of them when `None`), in the
    /// order of `record`. An unknown name is an error listing the known ones.
    pub fn new(header: &[String], record: Option<&[String]>) -> Result<ColumnTable, String> {
        let keep: Vec<usize> = match record {
            None => (0..header.len()).collect(),
            Some(names) => names
                .iter()
                .map(|n| {
                    header
                        .iter()
                        .position(|h| h == n)
                        .ok_or_else(|| format!("no column `{n}` in this simulation (columns: {})", header.join(", ")))
                })
                .collect::<Result<_, _>>()?,
        };
        let names = keep.iter().map(|&i| header[i].clone()).collect();
        let columns = vec![Vec::new(); keep.len()];
        Ok(ColumnTable { names, keep, columns })
    }

    /// Reserves room for `rows` more rows (at most 2^16 at once: a long run grows as it goes;
    /// a failed reservation is left to the growth in [`RowSink::row`], which reports it).
    pub fn reserve(&mut self, rows: usize) {
        self.columns.iter_mut().for_each(|c| {
            let _ = c.try_reserve(rows.min(1 << 16));
        });
    }

    /// Rows recorded.
    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, Vec::len)
    }

    /// The recorded columns with their names, in the order asked for.
    pub fn into_columns(self) -> Vec<(String, Vec<f64>)> {
        self.names.into_iter().zip(self.columns).collect()
    }
}

impl RowSink for ColumnTable {
    /// Appends the kept values; running out of memory is an error (the run stops with the rows
    /// recorded so far), never an abort.
    fn row(&mut self, values: &[f64]) -> Result<(), TargetError> {
        for (col, &i) in self.columns.iter_mut().zip(&self.keep) {
            if col.len() == col.capacity() {
                col.try_reserve(col.len().max(1024)).map_err(|e| TargetError::Io {
                    path: std::path::PathBuf::from("<memory>"),
                    source: std::io::Error::new(
                        std::io::ErrorKind::OutOfMemory,
                        format!(
                            "cannot keep more than {} rows in memory ({e}): record fewer columns or use `every`",
                            col.len()
                        ),
                    ),
                })?;
            }
            col.push(values.get(i).copied().unwrap_or(f64::NAN));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_named_columns_in_the_order_asked() {
        let h: Vec<String> = ["t", "a", "b"].iter().map(|s| s.to_string()).collect();
        let mut t = ColumnTable::new(&h, Some(&["b".to_string(), "t".to_string()])).unwrap();
        t.row(&[0.0, 1.0, 2.0]).unwrap();
        t.row(&[0.5, 3.0, 4.0]).unwrap();
        assert_eq!(t.rows(), 2);
        let c = t.into_columns();
        assert_eq!(c, vec![("b".to_string(), vec![2.0, 4.0]), ("t".to_string(), vec![0.0, 0.5])]);
        let e = ColumnTable::new(&h, Some(&["c".to_string()])).unwrap_err();
        assert!(e.contains("no column `c`") && e.contains("t, a, b"), "{e}");
    }
}
