//! `replay tail --follow` across a database that stops serving for a while (a failover: the
//! proxy in front of PostgreSQL cuts every connection and answers new ones by closing them,
//! as HAProxy does with no primary to send to), then serves again.

use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use events::{Checkpoint, EventStore, ExpectedVersion, Metadata, NewEvent, StreamId};
use replay::tail::{tail, TailOptions};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;

/// A TCP proxy to PostgreSQL that can be cut: every open connection is shut down and new ones
/// are closed as soon as they are accepted, until it is restored.
struct Proxy {
    port: u16,
    cut: Arc<AtomicBool>,
    /// Connections closed at once while cut: the database was asked for and not there.
    refused: Arc<AtomicUsize>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(target: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let port = listener.local_addr().expect("proxy address").port();
        let (cut, refused) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (cut_flag, refused_count, open_list) = (cut.clone(), refused.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if cut_flag.load(Ordering::SeqCst) {
                    refused_count.fetch_add(1, Ordering::SeqCst);
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else { continue };
                let pipes = [(client.try_clone(), server.try_clone()), (server.try_clone(), client.try_clone())];
                if let Ok(mut open) = open_list.lock() {
                    open.extend([client, server]);
                }
                for pipe in pipes {
                    if let (Ok(mut from), Ok(mut to)) = pipe {
                        std::thread::spawn(move || {
                            let _ = std::io::copy(&mut from, &mut to);
                            let _ = to.shutdown(Shutdown::Both);
                        });
                    }
                }
            }
        });
        Self { port, cut, refused, open }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for stream in self.open.lock().expect("open connections").drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// What `tail` writes, readable while it runs.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn checkpoints(&self) -> Vec<String> {
        let bytes = self.0.lock().expect("output").clone();
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["checkpoint"].to_string())
            .collect()
    }
}

fn event(n: i64) -> NewEvent {
    NewEvent {
        event_type: "demo.happened".into(),
        schema_version: 1,
        payload: serde_json::json!({ "n": n }),
        metadata: Metadata {
            correlation_id: uuid::Uuid::new_v4(),
            causation_id: None,
            actor: "test".into(),
            client: None,
        },
    }
}

/// Polls `done` every 50 ms; panics with `what` after 30 s.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn follow_waits_out_a_database_that_stopped_serving_and_prints_every_event_once(db: PgPool) {
    let direct = EventStore::new(db.clone());
    let stream = StreamId::new("cloud").expect("id");
    direct.append(&stream, ExpectedVersion::NoStream, vec![event(1), event(2)]).await.expect("append");
    let options = db.connect_options();
    let proxy = Proxy::start(format!("{}:{}", options.get_host(), options.get_port()));
    let through_proxy = PgPoolOptions::new()
        .max_connections(2)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with((*options).clone().host("127.0.0.1").port(proxy.port))
        .await
        .expect("connect through the proxy");
    let out = Shared::default();
    let mut writer = out.clone();
    let follower = tokio::spawn(async move {
        let options = TailOptions {
            after: Checkpoint::START,
            follow: true,
            limit: Some(5),
            batch: 500,
            held_back_wait: Duration::ZERO,
        };
        tail(&EventStore::new(through_proxy), options, &mut writer).await.map_err(|e| format!("{e:#}"))
    });
    until("the first two events printed", || out.checkpoints().len() == 2).await;

    // The database stops serving: the follower's connections break and new ones are refused.
    proxy.cut();
    until("the follower asked the database again", || proxy.refused.load(Ordering::SeqCst) >= 2).await;
    assert!(!follower.is_finished(), "the follower stopped: {:?}", follower.await);

    // It serves again, and three more events are committed meanwhile.
    direct.append(&stream, ExpectedVersion::Exact(2), vec![event(3), event(4), event(5)]).await.expect("append");
    proxy.restore();
    let printed = tokio::time::timeout(Duration::from_secs(30), follower)
        .await
        .expect("the follower printed five events within 30 s")
        .expect("the follower's task");
    assert_eq!(printed, Ok(5));

    let log: Vec<(String,)> = sqlx::query_as("SELECT tx_id || ':' || position FROM events ORDER BY tx_id, position")
        .fetch_all(&db)
        .await
        .expect("the log");
    let log: Vec<String> = log.into_iter().map(|(c,)| format!("\"{c}\"")).collect();
    assert_eq!(out.checkpoints(), log, "every event once, in the log's order");
}
