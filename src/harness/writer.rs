//! The writer thread: per-puzzle records back in corpus order, to the
//! [`RecordSink`] ([`Records`]), and the workers' side of it ([`Ordered`]).

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, Sender, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::{HarnessError, Record, RecordSink};
use crate::corpus::Corpus;

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

/// Where records go, and the reorder window.
#[derive(Clone, Copy)]
pub(super) struct Ordered<'a> {
    pub tx: &'a SyncSender<Batch>,
    /// Batches written so far over the run.
    pub written: &'a AtomicUsize,
    /// Batches of the corpora before this one.
    pub base: usize,
    /// Most batches in flight ahead of the writer.
    pub window: usize,
}

impl Ordered<'_> {
    /// Waits until chunk `seq` of this corpus is within the window.
    pub(super) fn wait_for_window(&self, seq: usize) {
        let mut spins = 0u32;
        while self.base + seq >= self.written.load(Ordering::Acquire) + self.window {
            spins += 1;
            if spins < 64 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(std::time::Duration::from_micros(100));
            }
        }
    }
}

/// The writer thread of a run with a [`RecordSink`], and what the workers
/// need to send it their batches in order; nothing without a sink.
pub(super) struct Records {
    /// The channel to the writer thread, and the thread.
    writer: Option<(SyncSender<Batch>, JoinHandle<io::Result<()>>)>,
    /// Batches written so far (over all corpora), for the reorder window.
    written: Arc<AtomicUsize>,
    /// Most batches in flight ahead of the writer.
    window: usize,
    /// The writer thread acknowledges each [`END_OF_CORPUS`] here.
    ended: Receiver<usize>,
}

impl Records {
    /// Starts the writer thread of `sink`, if any, for `corpora` run by
    /// `threads` workers: a worker does not start a chunk more than
    /// `2 x threads + 2` chunks ahead of the last one written.
    pub(super) fn start(
        sink: Option<Box<dyn RecordSink>>,
        corpora: &[Corpus],
        threads: usize,
    ) -> Result<Records, HarnessError> {
        let written = Arc::new(AtomicUsize::new(0));
        let window = 2 * threads + 2;
        let (ended_tx, ended) = std::sync::mpsc::channel::<usize>();
        let writer = match sink {
            Some(sink) => Some(spawn(sink, corpora, window, &written, ended_tx)?),
            None => None,
        };
        Ok(Records {
            writer,
            written,
            window,
            ended,
        })
    }

    /// Where the workers send a corpus's batches, `base` the batches of
    /// the corpora before it; none without a sink.
    pub(super) fn ordered(&self, base: usize) -> Option<Ordered<'_>> {
        self.writer.as_ref().map(|(tx, _)| Ordered {
            tx,
            written: &self.written,
            base,
            window: self.window,
        })
    }

    /// Corpus `index` ran in full and its records are all sent: has the
    /// writer thread keep them ([`RecordSink::end_corpus`]) and waits until
    /// it has, so that they are kept before the corpus is reported
    /// finished (an error ends the writer thread's acknowledgements, not
    /// the run).
    pub(super) fn end_corpus(&self, index: usize) {
        if let Some((tx, _)) = &self.writer {
            send(tx, index, END_OF_CORPUS, Vec::new());
            while self.ended.recv().is_ok_and(|c| c < index) {}
        }
    }

    /// Closes the channel and waits for the writer thread: the error of a
    /// failed write, if any (a failed write of the records loses them, not
    /// the run).
    pub(super) fn finish(self) -> Result<Option<io::Error>, HarnessError> {
        let Some((tx, handle)) = self.writer else {
            return Ok(None);
        };
        drop(tx);
        match handle.join() {
            Ok(r) => Ok(r.err()),
            Err(_) => Err(HarnessError::Config("writer thread panicked".into())),
        }
    }
}

/// Starts the thread that writes `sink`'s batches ([`write_batches`]).
fn spawn(
    sink: Box<dyn RecordSink>,
    corpora: &[Corpus],
    window: usize,
    written: &Arc<AtomicUsize>,
    ended: Sender<usize>,
) -> io::Result<(SyncSender<Batch>, JoinHandle<io::Result<()>>)> {
    let (tx, rx) = sync_channel::<Batch>(window);
    let names: Vec<String> = corpora.iter().map(|c| c.name().to_string()).collect();
    let chunks: Vec<usize> = corpora.iter().map(Corpus::chunk_count).collect();
    let written = written.clone();
    let handle = std::thread::Builder::new()
        .name("dlxbench-writer".into())
        .spawn(move || write_batches(rx, sink, &names, &chunks, &written, &ended))?;
    Ok((tx, handle))
}
