//! The cleanup of abandoned games: unfinished games nobody has changed for
//! [`Config::abandon_after`](crate::Config::abandon_after) are deleted, when the server
//! starts and then every hour.

use super::ids::now;
use super::AppState;
use std::sync::Arc;
use std::time::Duration;

/// How often the abandoned games are looked for.
const EVERY: Duration = Duration::from_secs(3600);

/// Deletes the abandoned games now, then every hour, for as long as the server runs (does
/// nothing when games are kept for ever).
pub(crate) async fn sweep_abandoned(app: Arc<AppState>) {
    let Some(after) = app.config.abandon_after else {
        return;
    };
    let mut ticks = tokio::time::interval(EVERY);
    loop {
        ticks.tick().await;
        let before = now().saturating_sub(i64::try_from(after.as_secs()).unwrap_or(i64::MAX));
        match app.db(move |s| s.delete_abandoned(before)).await {
            Ok(0) => {}
            Ok(n) => eprintln!(
                "deleted {n} games abandoned for {} days",
                after.as_secs() / 86_400
            ),
            Err(e) => eprintln!("cannot delete the abandoned games: {e:?}"),
        }
    }
}
