//! `replay export --format parquet`: the same funnel facts as the CSV export (one row per
//! attempt and step reached, no personal data), as an Apache Parquet file with typed columns
//! (a date, a timestamp, an integer step), for DuckDB, pandas or Spark.
//!
//! Streaming: rows are buffered up to one row group and written, so memory follows the row
//! group, not the history. The file is written beside its final name and renamed when complete:
//! a killed export never leaves a file that a reader would take for a whole one.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use events::funnel::Funnel;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::record::RecordWriter;
use parquet_derive::ParquetRecordWriter;

use crate::funnel::Finished;

/// Rows per row group: large enough for DuckDB to scan well, small enough to stay in memory.
pub const ROW_GROUP: usize = 65_536;

/// One row; the columns are the CSV export's, in its order.
#[derive(Debug, Clone, PartialEq, ParquetRecordWriter)]
pub struct Row {
    pub attempt: String,
    pub flow: String,
    pub variant: String,
    pub partner: String,
    pub brand: String,
    pub os: String,
    pub platform: String,
    /// The São Paulo day the attempt started.
    pub day: NaiveDate,
    pub step_index: i32,
    pub step: String,
    /// UTC, milliseconds.
    pub reached_at: NaiveDateTime,
    /// Only on the attempt's last row, when the visitor read a refusal there.
    pub refusal: Option<String>,
}

/// The rows of one finished attempt.
pub fn rows(funnel: &Funnel, attempt: &Finished) -> Vec<Row> {
    let last = attempt.reached.len().saturating_sub(1);
    let f = &attempt.facts;
    attempt
        .reached
        .iter()
        .enumerate()
        .map(|(i, ms)| Row {
            attempt: attempt.attempt.clone(),
            flow: funnel.flow.to_string(),
            variant: f.variant.clone(),
            partner: f.partner.clone(),
            brand: f.brand.clone(),
            os: f.os.clone(),
            platform: f.platform.clone(),
            day: f.day,
            step_index: i32::try_from(i).unwrap_or(i32::MAX),
            step: funnel.steps[i].key.to_string(),
            reached_at: (attempt.started + Duration::milliseconds(*ms)).naive_utc(),
            refusal: if i == last { attempt.refusal.clone() } else { None },
        })
        .collect()
}

/// Writes row groups to `<path>.partial` and renames it to `path` on [`ParquetSink::finish`].
pub struct ParquetSink {
    writer: SerializedFileWriter<File>,
    buffer: Vec<Row>,
    partial: PathBuf,
    path: PathBuf,
    pub rows: u64,
}

impl ParquetSink {
    pub fn create(path: &Path) -> Result<Self, ParquetError> {
        let mut partial = path.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let file = File::create(&partial)?;
        let schema = [Row::empty()].as_slice().schema()?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("replay {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = SerializedFileWriter::new(file, schema, Arc::new(properties))?;
        Ok(Self { writer, buffer: Vec::with_capacity(ROW_GROUP), partial, path: path.to_path_buf(), rows: 0 })
    }

    pub fn push(&mut self, funnel: &Funnel, attempt: &Finished) -> Result<(), ParquetError> {
        self.buffer.extend(rows(funnel, attempt));
        if self.buffer.len() >= ROW_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ParquetError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let mut group = self.writer.next_row_group()?;
        self.buffer.as_slice().write_to_row_group(&mut group)?;
        group.close()?;
        self.rows += self.buffer.len() as u64;
        self.buffer.clear();
        Ok(())
    }

    /// The last row group, the footer, then the file under its final name.
    pub fn finish(mut self) -> Result<u64, ParquetError> {
        self.flush()?;
        self.writer.close()?;
        std::fs::rename(&self.partial, &self.path)?;
        Ok(self.rows)
    }
}

/// The funnel facts of `query` into the Parquet file `path`; `progress` counts the attempts.
pub async fn export(
    store: &events::EventStore,
    query: &crate::funnel::FunnelQuery,
    path: &Path,
    progress: &indicatif::ProgressBar,
) -> anyhow::Result<u64> {
    use anyhow::Context as _;
    let mut sink = ParquetSink::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut failed = None;
    let sink_ref = &mut sink;
    let on_finished = |finished: &Finished| {
        if failed.is_none() {
            match sink_ref.push(&query.funnel, finished) {
                Ok(()) => progress.inc(1),
                Err(error) => failed = Some(error),
            }
        }
    };
    let replay = crate::funnel::Replay::new(query).with_sink(on_finished);
    crate::funnel::replay_with(store, replay, |_| {}).await?;
    if let Some(error) = failed {
        return Err(error).context("writing the Parquet file");
    }
    sink.finish().context("closing the Parquet file")
}

impl Row {
    /// A row whose only use is to derive the schema from.
    fn empty() -> Self {
        Self {
            attempt: String::new(),
            flow: String::new(),
            variant: String::new(),
            partner: String::new(),
            brand: String::new(),
            os: String::new(),
            platform: String::new(),
            day: NaiveDate::default(),
            step_index: 0,
            step: String::new(),
            reached_at: NaiveDateTime::default(),
            refusal: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_step_reached_and_the_refusal_only_on_the_last() {
        let funnel = events::funnel::funnel("cloud", None).expect("cloud");
        let attempt = crate::export::tests::cloud_attempt_refused_at_the_code("Código incorreto");
        let rows = rows(&funnel, &attempt);
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].step_index, rows[0].step.as_str(), rows[0].refusal.as_deref()),
            (0, "details_submitted", None)
        );
        assert_eq!(
            (rows[1].step.as_str(), rows[1].reached_at.to_string(), rows[1].refusal.as_deref()),
            ("phone_checked", "2026-11-02 13:00:01.500".to_string(), Some("Código incorreto"))
        );
    }
}
