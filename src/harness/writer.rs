//! The writer thread: per-puzzle records back in corpus order, to the
//! [`RecordSink`].

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};

use super::{Record, RecordSink};

/// The `seq` of the [`Batch`] that marks the end of a corpus run in full:
/// the writer thread calls [`RecordSink::end_corpus`] and acknowledges.
pub(super) const END_OF_CORPUS: usize = usize::MAX;

/// One chunk's records on their way to the writer thread (or, with `seq`
/// [`END_OF_CORPUS`], the end of a corpus).
pub(super) struct Batch {
    pub(super) corpus: usize,
    pub(super) seq: usize,
    pub(super) records: Vec<Record>,
}

/// The writer thread: puts batches back in (corpus, chunk) order and hands
/// them to the sink. Keeps draining after a sink error so that workers never
/// block, and returns the first error. The sink is dropped at its first
/// error (a full disk: what it holds in temporary files is freed at once,
/// for the other result files).
pub(super) fn write_batches(
    rx: Receiver<Batch>,
    sink: Box<dyn RecordSink>,
    names: &[String],
    chunks: &[usize],
    written: &AtomicUsize,
    ended: &std::sync::mpsc::Sender<usize>,
) -> std::io::Result<()> {
    let mut pending: BTreeMap<(usize, usize), Vec<Record>> = BTreeMap::new();
    let (mut corpus, mut seq) = (0usize, 0usize);
    let mut error: Option<std::io::Error> = None;
    // `None` once an error is kept.
    let mut sink = Some(sink);
    let emit = |sink: &mut Option<Box<dyn RecordSink>>,
                records: &[Record],
                corpus: usize,
                error: &mut Option<std::io::Error>| {
        if let Some(s) = sink.as_mut() {
            if let Err(e) = s.write_batch(&names[corpus], records) {
                *error = Some(e);
                *sink = None;
            }
        }
    };
    for batch in rx {
        if batch.seq == END_OF_CORPUS {
            // Every chunk of the corpus was sent before its end: anything
            // still pending of it (or before it) goes out now, in order.
            let rest = pending.split_off(&(batch.corpus + 1, 0));
            for ((c, _), records) in std::mem::replace(&mut pending, rest) {
                emit(&mut sink, &records, c, &mut error);
                written.fetch_add(1, Ordering::Release);
            }
            if corpus <= batch.corpus {
                (corpus, seq) = (batch.corpus + 1, 0);
            }
            if let Some(s) = sink.as_mut() {
                if let Err(e) = s.end_corpus(&names[batch.corpus]) {
                    error = Some(e);
                    sink = None;
                }
            }
            let _ = ended.send(batch.corpus);
            continue;
        }
        pending.insert((batch.corpus, batch.seq), batch.records);
        while corpus < chunks.len() {
            if seq == chunks[corpus] {
                corpus += 1;
                seq = 0;
                continue;
            }
            let Some(records) = pending.remove(&(corpus, seq)) else {
                break;
            };
            emit(&mut sink, &records, corpus, &mut error);
            written.fetch_add(1, Ordering::Release);
            seq += 1;
        }
    }
    // Anything left (only if a worker stopped early): write in order.
    for ((c, _), records) in std::mem::take(&mut pending) {
        emit(&mut sink, &records, c, &mut error);
    }
    if let Some(mut s) = sink {
        s.finish()?;
    }
    error.map_or(Ok(()), Err)
}

/// Sends a batch; a closed channel (writer gone after an error) is ignored.
pub(super) fn send(sender: &SyncSender<Batch>, corpus: usize, seq: usize, records: Vec<Record>) {
    let _ = sender.send(Batch {
        corpus,
        seq,
        records,
    });
}
