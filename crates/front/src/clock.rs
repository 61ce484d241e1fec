//! Game clocks for front ends: time runs only for the player who must act.
//!
//! Clocks live outside the game state (they measure people, not rules), and
//! are never used by `bench`, `perft`, simulations or replays.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::base::state::PlayerId;

/// Where a clock reads the time: the real clock, or one a test moves.
pub type TimeSource = Arc<dyn Fn() -> Instant + Send + Sync>;

#[derive(Clone)]
pub struct Clock {
    remaining: Vec<Duration>,
    increment: Duration,
    running: Option<(PlayerId, Instant)>,
    now: TimeSource,
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clock")
            .field("remaining", &self.remaining)
            .field("increment", &self.increment)
            .field("running", &self.running)
            .finish()
    }
}

/// The longest time a clock may hold (a year: far beyond any game, far
/// within what `Duration` and `Instant` hold).
const MAX_CLOCK_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// Parses `90s`, `15m`, `1h`, `1m30s` or a bare number of minutes: digits
/// and a decimal point only (no sign, exponent, `inf` or `NaN`), at most
/// a year in all.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty duration".into());
    }
    if !t
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'h' | 'm' | 's'))
    {
        return Err(format!(
            "`{t}`: a duration is written like 90s, 15m, 1h or 1m30s"
        ));
    }
    let secs = parse_units(t)?;
    if !secs.is_finite() || secs > MAX_CLOCK_SECS {
        return Err(format!("`{t}`: a clock holds at most a year"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// The seconds `t` (digits, points and units only) says.
fn parse_units(t: &str) -> Result<f64, String> {
    if let Ok(mins) = t.parse::<f64>() {
        return Ok(mins * 60.0);
    }
    let mut total = 0.0;
    let mut num = String::new();
    for ch in t.chars() {
        if ch.is_ascii_digit() || ch == '.' {
            num.push(ch);
            continue;
        }
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{t}`: expected a number before `{ch}`"))?;
        total += n * match ch {
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => return Err(format!("`{t}`: unknown unit `{ch}` (use h, m or s)")),
        };
        num.clear();
    }
    if !num.is_empty() {
        return Err(format!("`{t}`: a number without a unit at the end"));
    }
    Ok(total)
}

impl Clock {
    /// A clock from `15m` or `15m+5s` (time per player, then the increment
    /// added after each of that player's actions).
    pub fn parse(spec: &str, players: usize) -> Result<Clock, String> {
        let (base, inc) = match spec.split_once('+') {
            Some((b, i)) => (parse_duration(b)?, parse_duration(i)?),
            None => (parse_duration(spec)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err("the clock needs some time".into());
        }
        Ok(Clock {
            remaining: vec![base; players],
            increment: inc,
            running: None,
            now: Arc::new(Instant::now),
        })
    }

    /// Reads the time from `now` instead of the real clock (for tests).
    pub fn with_time_source(mut self, now: TimeSource) -> Clock {
        self.now = now;
        self
    }

    /// A time source a test moves by hand, and its handle.
    pub fn manual_time() -> (TimeSource, Arc<std::sync::Mutex<Instant>>) {
        let t = Arc::new(std::sync::Mutex::new(Instant::now()));
        let r = t.clone();
        (
            Arc::new(move || *r.lock().unwrap_or_else(|e| e.into_inner())),
            t,
        )
    }

    /// Starts timing `player` (stopping whoever was running).
    pub fn start(&mut self, player: PlayerId) {
        self.stop();
        self.running = Some((player, (self.now)()));
    }

    /// Stops the running clock, charging the elapsed time. Returns the player
    /// whose time ran out, if any.
    pub fn stop(&mut self) -> Option<PlayerId> {
        let (p, since) = self.running.take()?;
        let slot = &mut self.remaining[p as usize];
        let spent = (self.now)().saturating_duration_since(since);
        if spent >= *slot {
            *slot = Duration::ZERO;
            return Some(p);
        }
        *slot -= spent;
        *slot += self.increment;
        None
    }

    /// Stops without charging an increment, for a pause (the time spent so
    /// far is charged).
    pub fn pause(&mut self) -> Option<PlayerId> {
        let inc = self.increment;
        self.increment = Duration::ZERO;
        let flagged = self.stop();
        self.increment = inc;
        flagged
    }

    /// Whether `player` has run out of time (counting the running period).
    pub fn flagged(&self, player: PlayerId) -> bool {
        self.remaining(player).is_zero()
    }

    pub fn remaining(&self, player: PlayerId) -> Duration {
        let left = self.remaining[player as usize];
        match self.running {
            Some((p, since)) if p == player => {
                left.saturating_sub((self.now)().saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// Sets each player's remaining time (a resumed game's clock as it was
    /// recorded); the clock is left stopped.
    pub fn set_remaining(&mut self, times: &[Duration]) {
        self.running = None;
        for (slot, t) in self.remaining.iter_mut().zip(times) {
            *slot = *t;
        }
    }

    /// `red 14:32  blue 15:00` with the player names given.
    pub fn display(&self, names: &[String]) -> String {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let d = self.remaining(i as PlayerId).as_secs();
                let mark = if matches!(self.running, Some((p, _)) if p as usize == i) {
                    "*"
                } else {
                    ""
                };
                format!("{n} {}:{:02}{mark}", d / 60, d % 60)
            })
            .collect::<Vec<_>>()
            .join("  ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("15m").unwrap(), Duration::from_secs(900));
        assert_eq!(parse_duration("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("5x").is_err());
        assert!(parse_duration("5m3").is_err());
        let c = Clock::parse("15m+5s", 2).unwrap();
        assert_eq!(c.increment, Duration::from_secs(5));
        assert!(Clock::parse("0s", 2).is_err());
    }

    #[test]
    fn time_runs_only_for_the_player_to_act() {
        let (source, t) = Clock::manual_time();
        let advance = |d: u64| *t.lock().unwrap() += Duration::from_secs(d);
        let mut c = Clock::parse("10m+1s", 2).unwrap().with_time_source(source);
        c.start(0);
        advance(30);
        assert_eq!(c.remaining(0), Duration::from_secs(570));
        assert_eq!(c.remaining(1), Duration::from_secs(600));
        assert_eq!(c.stop(), None);
        assert_eq!(
            c.remaining(0),
            Duration::from_secs(571),
            "the increment is added"
        );
        advance(100);
        assert_eq!(
            c.remaining(0),
            Duration::from_secs(571),
            "no time runs when nobody acts"
        );
        c.start(1);
        advance(601);
        assert!(c.flagged(1));
        assert_eq!(c.stop(), Some(1));
        let shown = c.display(&["red".into(), "blue".into()]);
        assert!(
            shown.contains("blue 0:00") && shown.contains("red 9:31"),
            "{shown}"
        );
    }
}
