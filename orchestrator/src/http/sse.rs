//! The one way the server keeps an event stream open (issue 24): the visitor's attempt stream
//! and the support console's both go through [`bounded`], which holds the stream's place
//! under its caps for as long as it is open, ends it when the server stops (so a graceful
//! shutdown is not held open by a browser) or its lifetime is over, and sends keep-alives.

use std::convert::Infallible;

use axum::response::sse::{Event, KeepAlive, Sse};
use futures::{Stream, StreamExt};

use crate::attempts::notifier::Notifier;
use crate::attempts::streams::Place;

/// `frames` as a server-sent event stream that keeps `place` until it ends, and ends when the
/// server stops or when the place's lifetime is over (the browser's EventSource opens it again).
pub fn bounded(
    frames: impl Stream<Item = Event> + Send + 'static,
    place: Place,
    notifier: Notifier,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let lifetime = place.lifetime();
    let ending = Box::pin(async move {
        let expired = async {
            match lifetime {
                Some(lifetime) => tokio::time::sleep(lifetime).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            () = notifier.stopping() => {}
            () = expired => {}
        }
    });
    let frames = frames.take_until(ending).map(move |frame| {
        // The place is released when the stream (and this closure) is dropped.
        let _held = &place;
        Ok(frame)
    });
    Sse::new(frames).keep_alive(KeepAlive::default())
}
