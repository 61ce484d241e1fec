//! The charts of `simulate --report`, as SVG written by hand: win rates
//! with their intervals, the paired differences of `--compare`, the rates
//! against a `--sweep`'s value, the length histograms and the endings.
//! Every mark carries its numbers as `data-` attributes (written as
//! `--json` writes them) and a `<title>`.

use std::fmt::Write;

use crate::play::compare::Diff;
use crate::play::simulate::{options_label, pct, Rate, Report, RunFile, Stats};

pub(crate) const FONT: f64 = 12.0;
const ROW: f64 = 20.0;
/// Colours of the seats (and of the arms in the length histograms).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];
const DRAW_COLOUR: &str = "#7f7f7f";

fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// About how wide `s` is drawn at the report's font size.
fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * FONT * 0.6
}

pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A number as written in a `data-` attribute: as `--json` writes it, so
/// the text is the same and reads back as the same `f64`.
fn num(x: f64) -> String {
    serde_json::Number::from_f64(x).map_or_else(|| "null".into(), |n| n.to_string())
}

/// One chart: SVG content in its own coordinates, `w` by `h`.
pub(crate) struct Chart {
    pub id: &'static str,
    pub title: String,
    pub w: f64,
    pub h: f64,
    pub body: String,
}

impl Chart {
    pub fn svg(&self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"{id}-chart\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"{FONT}\" role=\"img\"><title>{t}</title>{body}</svg>",
            id = self.id,
            w = self.w.ceil(),
            h = self.h.ceil(),
            t = esc(&self.title),
            body = self.body
        )
    }
}

/// The attributes of a rate: its count, games, rate and interval.
fn rate_attrs(r: &Rate, games: u64) -> String {
    format!(
        "data-count=\"{}\" data-games=\"{games}\" data-rate=\"{}\" data-lo=\"{}\" data-hi=\"{}\"",
        r.count,
        num(r.rate),
        num(r.ci95.0),
        num(r.ci95.1)
    )
}

/// What a rate row shows: which arm, what is counted, the rate.
pub(crate) struct RateRow<'a> {
    pub arm: usize,
    pub options: &'a [String],
    /// The seat's player and agent, or `None` for draws.
    seat: Option<(&'a str, &'a str)>,
    colour: &'static str,
    pub rate: &'a Rate,
    games: u64,
}

impl RateRow<'_> {
    pub fn label(&self) -> String {
        match self.seat {
            Some((p, a)) => format!("{p} ({a}) wins"),
            None => "draws".into(),
        }
    }

    fn attrs(&self) -> String {
        let who = match self.seat {
            Some((p, a)) => format!(
                "data-kind=\"wins\" data-seat=\"{}\" data-agent=\"{}\"",
                esc(p),
                esc(a)
            ),
            None => "data-kind=\"draws\"".into(),
        };
        format!(
            "data-arm=\"{}\" data-options=\"{}\" {who} {}",
            self.arm,
            esc(&self.options.join(" ")),
            rate_attrs(self.rate, self.games)
        )
    }

    fn tip(&self) -> String {
        format!(
            "{}: {} [{}, {}] ({} of {} games)",
            self.label(),
            pct(self.rate.rate),
            pct(self.rate.ci95.0),
            pct(self.rate.ci95.1),
            self.rate.count,
            self.games
        )
    }
}

pub(crate) fn rate_rows(s: &Stats, arm: usize) -> Vec<RateRow<'_>> {
    let mut rows: Vec<RateRow> = s
        .seats
        .iter()
        .enumerate()
        .map(|(i, x)| RateRow {
            arm,
            options: &s.options,
            seat: Some((&x.player, &x.agent)),
            colour: colour(i),
            rate: &x.wins,
            games: s.games,
        })
        .collect();
    rows.push(RateRow {
        arm,
        options: &s.options,
        seat: None,
        colour: DRAW_COLOUR,
        rate: &s.draws,
        games: s.games,
    });
    rows
}

/// A top axis from 0% to 100% over `[x0, x0 + w]`, its grid down to `bottom`.
fn percent_axis(out: &mut String, x0: f64, w: f64, top: f64, bottom: f64) {
    for k in 0..=4 {
        let x = x0 + w * k as f64 / 4.0;
        let _ = write!(
            out,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{bottom}\" stroke=\"#ddd\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}%</text>",
            top - 4.0,
            25 * k
        );
    }
}

/// Win rates with their 95% intervals, per option set and seat.
fn rates_chart(r: &Report) -> Chart {
    let rows: Vec<Vec<RateRow>> = r
        .arms
        .iter()
        .enumerate()
        .map(|(i, s)| rate_rows(s, i))
        .collect();
    let label_w = rows
        .iter()
        .flatten()
        .map(|row| text_width(&row.label()))
        .fold(120.0, f64::max)
        + 16.0;
    let (x0, pw) = (label_w, 400.0);
    let top = 24.0;
    let n_rows: usize = rows.iter().map(|r| r.len() + 1).sum();
    let bottom = top + ROW * n_rows as f64;
    let mut body = String::new();
    percent_axis(&mut body, x0, pw, top, bottom);
    let mut y = top;
    for (arm, arm_rows) in rows.iter().enumerate() {
        let _ = write!(
            body,
            "<text x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text>",
            y + 14.0,
            esc(&options_label(&r.arms[arm].options))
        );
        y += ROW;
        for row in arm_rows {
            let (lo, hi, at) = (
                x0 + pw * row.rate.ci95.0,
                x0 + pw * row.rate.ci95.1,
                x0 + pw * row.rate.rate,
            );
            let mid = y + ROW / 2.0;
            let _ = write!(
                body,
                "<g class=\"rate\" {attrs}><title>{tip}</title><text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text><rect x=\"{x0}\" y=\"{ry}\" width=\"{bw}\" height=\"12\" fill=\"{c}\" fill-opacity=\"0.3\"/><line x1=\"{lo}\" y1=\"{mid}\" x2=\"{hi}\" y2=\"{mid}\" stroke=\"{c}\" stroke-width=\"2\"/><line x1=\"{lo}\" y1=\"{c1}\" x2=\"{lo}\" y2=\"{c2}\" stroke=\"{c}\" stroke-width=\"2\"/><line x1=\"{hi}\" y1=\"{c1}\" x2=\"{hi}\" y2=\"{c2}\" stroke=\"{c}\" stroke-width=\"2\"/><circle cx=\"{at}\" cy=\"{mid}\" r=\"4\" fill=\"{c}\"/><text x=\"{vx}\" y=\"{ty}\">{v}</text></g>",
                attrs = row.attrs(),
                tip = esc(&row.tip()),
                lx = x0 - 8.0,
                ty = y + 14.0,
                label = esc(&row.label()),
                ry = y + 4.0,
                bw = pw * row.rate.rate,
                c = row.colour,
                c1 = mid - 4.0,
                c2 = mid + 4.0,
                vx = x0 + pw + 10.0,
                v = esc(&format!(
                    "{} [{}, {}]",
                    pct(row.rate.rate),
                    pct(row.rate.ci95.0),
                    pct(row.rate.ci95.1)
                )),
            );
            y += ROW;
        }
    }
    Chart {
        id: "rates",
        title: "Win rates with 95% Wilson intervals, per option set and seat".into(),
        w: x0 + pw + 190.0,
        h: bottom + 8.0,
        body,
    }
}

/// The paired differences B - A of `--compare`, with their p-values.
fn compare_chart(r: &Report, diffs: &[Diff]) -> Chart {
    let is_len = |d: &Diff| d.name.starts_with("length");
    let label_w = diffs
        .iter()
        .map(|d| text_width(&d.name))
        .fold(120.0, f64::max)
        + 16.0;
    // Rates share a scale in percentage points: the largest difference,
    // rounded up to 5 points.
    let biggest = diffs
        .iter()
        .filter(|d| !is_len(d))
        .map(|d| d.diff.abs())
        .fold(0.0, f64::max);
    let m = ((biggest * 100.0 / 5.0).ceil().max(1.0)) * 5.0 / 100.0;
    let (x0, pw) = (label_w, 360.0);
    let centre = x0 + pw / 2.0;
    let top = 40.0;
    let bottom = top + ROW * diffs.len() as f64;
    let mut body = String::new();
    let _ = write!(
        body,
        "<text x=\"4\" y=\"14\" font-weight=\"bold\">B [{}] - A [{}], games paired by seed</text>",
        esc(&options_label(&r.arms[1].options)),
        esc(&options_label(&r.arms[0].options))
    );
    for k in -2..=2 {
        let x = centre + pw / 2.0 * k as f64 / 2.0;
        let _ = write!(
            body,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{bottom}\" stroke=\"{}\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{} pp</text>",
            if k == 0 { "#888" } else { "#ddd" },
            top - 4.0,
            points(100.0 * m * k as f64 / 2.0)
        );
    }
    for (i, d) in diffs.iter().enumerate() {
        let y = top + ROW * i as f64;
        let ty = y + 14.0;
        let attrs = format!(
            "data-name=\"{}\" data-test=\"{}\" data-a=\"{}\" data-b=\"{}\" data-diff=\"{}\" data-pairs=\"{}\" data-p=\"{}\" data-significant=\"{}\"",
            esc(&d.name),
            esc(&d.test),
            num(d.a),
            num(d.b),
            num(d.diff),
            d.pairs,
            num(d.p_value),
            d.significant
        );
        let (values, mark) = if is_len(d) {
            (
                format!("{:.1} → {:.1} ({:+.1})", d.a, d.b, d.diff),
                format!(
                    "<text x=\"{centre}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{:+.1} plies</text>",
                    d.diff
                ),
            )
        } else {
            let w = (d.diff.abs() / m).min(1.0) * pw / 2.0;
            let x = if d.diff < 0.0 { centre - w } else { centre };
            (
                format!("{} → {} ({:+.1} pp)", pct(d.a), pct(d.b), 100.0 * d.diff),
                format!(
                    "<rect x=\"{x}\" y=\"{}\" width=\"{w}\" height=\"12\" fill=\"{}\" fill-opacity=\"{}\"/>",
                    y + 4.0,
                    if d.diff < 0.0 { "#ff7f0e" } else { "#1f77b4" },
                    if d.significant { 0.9 } else { 0.35 }
                ),
            )
        };
        let p = format!(
            "p = {:.3}{}",
            d.p_value,
            if d.significant { " significant" } else { "" }
        );
        let _ = write!(
            body,
            "<g class=\"diff\" {attrs}><title>{tip}</title><text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{name}</text>{mark}<text x=\"{vx}\" y=\"{ty}\">{values}</text><text x=\"{px}\" y=\"{ty}\"{weight}>{p}</text></g>",
            tip = esc(&format!("{}: {values}, {} ({} pairs), {p}", d.name, d.test, d.pairs)),
            lx = x0 - 8.0,
            name = esc(&d.name),
            vx = x0 + pw + 10.0,
            values = esc(&values),
            px = x0 + pw + 200.0,
            weight = if d.significant { " font-weight=\"bold\"" } else { "" },
        );
    }
    Chart {
        id: "compare",
        title: "Paired differences B - A with their p-values (exact McNemar for rates, paired t-test for length)".into(),
        w: x0 + pw + 330.0,
        h: bottom + 8.0,
        body,
    }
}

/// Percentage points with a sign, without a trailing `.0`: `+2.5`, `-5`, `0`.
fn points(x: f64) -> String {
    let t = format!("{x:+.1}");
    let t = t.strip_suffix(".0").unwrap_or(&t);
    if t == "+0" || t == "-0" {
        "0".into()
    } else {
        t.into()
    }
}

/// The value of `name` in an arm's options.
fn sweep_value<'a>(options: &'a [String], name: &str) -> &'a str {
    options
        .iter()
        .rev()
        .find_map(|o| o.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
        .unwrap_or("?")
}

/// `--sweep`: each seat's win rate (and draws) against the option's value.
fn sweep_chart(r: &Report, name: &str) -> Chart {
    let (x0, pw, top, ph) = (56.0, 520.0, 30.0, 240.0);
    let n = r.arms.len().max(1);
    let step = pw / n as f64;
    let x_of = |i: usize| x0 + step * (i as f64 + 0.5);
    let y_of = |rate: f64| top + ph * (1.0 - rate);
    let mut body = String::new();
    for k in 0..=4 {
        let y = top + ph * k as f64 / 4.0;
        let _ = write!(
            body,
            "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{}%</text>",
            x0 + pw,
            x0 - 6.0,
            y + 4.0,
            100 - 25 * k
        );
    }
    for (i, s) in r.arms.iter().enumerate() {
        let _ = write!(
            body,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x_of(i),
            top + ph + 16.0,
            esc(sweep_value(&s.options, name))
        );
    }
    let _ = write!(
        body,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>",
        x0 + pw / 2.0,
        top + ph + 34.0,
        esc(name)
    );
    let series = r.arms.first().map_or(0, |s| s.seats.len() + 1);
    for k in 0..series {
        let rows: Vec<RateRow> = r
            .arms
            .iter()
            .enumerate()
            .filter_map(|(i, s)| rate_rows(s, i).into_iter().nth(k))
            .collect();
        let Some(first) = rows.first() else { continue };
        // Each series a little to the side, so intervals do not hide each other.
        let shift = 7.0 * (k as f64 - (series as f64 - 1.0) / 2.0);
        let (c, label) = (first.colour, first.label());
        let points: Vec<String> = rows
            .iter()
            .map(|row| format!("{},{}", x_of(row.arm) + shift, y_of(row.rate.rate)))
            .collect();
        let _ = write!(
            body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\"{}/>",
            points.join(" "),
            if first.seat.is_none() {
                " stroke-dasharray=\"4 3\""
            } else {
                ""
            }
        );
        for row in &rows {
            let x = x_of(row.arm) + shift;
            let _ = write!(
                body,
                "<g class=\"sweep-point\" data-value=\"{v}\" {attrs}><title>{name}={v}: {tip}</title><line x1=\"{x}\" y1=\"{lo}\" x2=\"{x}\" y2=\"{hi}\" stroke=\"{c}\" stroke-width=\"2\"/><circle cx=\"{x}\" cy=\"{y}\" r=\"4\" fill=\"{c}\"/></g>",
                v = esc(sweep_value(row.options, name)),
                attrs = row.attrs(),
                name = esc(name),
                tip = esc(&row.tip()),
                lo = y_of(row.rate.ci95.0),
                hi = y_of(row.rate.ci95.1),
                y = y_of(row.rate.rate),
            );
        }
        let ly = top + 8.0 + ROW * k as f64;
        let _ = write!(
            body,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{c}\"/><text x=\"{}\" y=\"{}\">{}</text>",
            x0 + pw + 16.0,
            ly - 10.0,
            x0 + pw + 34.0,
            ly,
            esc(&label)
        );
    }
    let legend_w = r
        .arms
        .first()
        .map(|s| {
            rate_rows(s, 0)
                .iter()
                .map(|row| text_width(&row.label()))
                .fold(0.0, f64::max)
        })
        .unwrap_or(0.0);
    Chart {
        id: "sweep",
        title: format!("Win rates with 95% Wilson intervals against the value of {name}"),
        w: x0 + pw + 40.0 + legend_w,
        h: top + ph + 44.0,
        body,
    }
}

/// Bins of whole plies shared by every arm: the first ply and the width.
pub(crate) fn bins(run: &RunFile) -> Option<(u32, u32, usize)> {
    let plies = || {
        run.arms
            .iter()
            .flat_map(|a| a.games.iter().map(|g| g.plies))
    };
    let (lo, hi) = (plies().min()?, plies().max()?);
    let span = u64::from(hi - lo) + 1;
    let mut width = 1u64;
    'find: for scale in [1u64, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
        for m in [1, 2, 5] {
            width = m * scale;
            if span.div_ceil(width) <= 30 {
                break 'find;
            }
        }
    }
    let width = u32::try_from(width).unwrap_or(u32::MAX);
    let start = lo / width * width;
    let count = ((hi - start) / width) as usize + 1;
    Some((start, width, count))
}

/// The game-length distribution of each arm, on shared bins and scale.
fn length_chart(run: &RunFile, r: &Report) -> Chart {
    let (x0, pw, ph) = (56.0, 560.0, 110.0);
    let panel = ph + 56.0;
    let mut body = String::new();
    let Some((start, width, count)) = bins(run) else {
        return Chart {
            id: "length",
            title: "Game length (plies)".into(),
            w: 10.0,
            h: 10.0,
            body,
        };
    };
    let counts: Vec<Vec<u64>> = run
        .arms
        .iter()
        .map(|a| {
            let mut c = vec![0u64; count];
            for g in &a.games {
                c[((g.plies - start) / width) as usize] += 1;
            }
            c
        })
        .collect();
    let most = counts.iter().flatten().copied().max().unwrap_or(1).max(1);
    let bw = pw / count as f64;
    let every = count.div_ceil(10).max(1);
    for (arm, c) in counts.iter().enumerate() {
        let s = &r.arms[arm];
        let top = 22.0 + panel * arm as f64;
        let base = top + ph;
        let col = colour(arm);
        let _ = write!(
            body,
            "<text x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">mean {:.1}, sd {:.1}, min {}, max {}</text><line x1=\"{x0}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\" stroke=\"#888\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">{most}</text><text x=\"{}\" y=\"{base}\" text-anchor=\"end\" fill=\"#555\">0</text>",
            top - 6.0,
            esc(&options_label(&s.options)),
            x0 + pw,
            top - 6.0,
            s.length.mean,
            s.length.sd,
            s.length.min,
            s.length.max,
            x0 + pw,
            x0 - 6.0,
            top + 10.0,
            x0 - 6.0,
        );
        for (k, &games) in c.iter().enumerate() {
            let from = start + width * k as u32;
            let to = from + width - 1;
            let h = ph * games as f64 / most as f64;
            let x = x0 + bw * k as f64;
            let range = if width == 1 {
                format!("{from} plies")
            } else {
                format!("{from}-{to} plies")
            };
            let _ = write!(
                body,
                "<rect class=\"bin\" data-arm=\"{arm}\" data-from=\"{from}\" data-to=\"{to}\" data-games=\"{games}\" x=\"{x}\" y=\"{}\" width=\"{}\" height=\"{h}\" fill=\"{col}\" fill-opacity=\"0.7\"><title>{range}: {games} games</title></rect>",
                base - h,
                (bw - 1.0).max(0.5),
            );
            if k % every == 0 {
                let _ = write!(
                    body,
                    "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{from}</text>",
                    x + bw / 2.0,
                    base + 14.0
                );
            }
        }
        // The mean, on the same scale as the bins.
        let mx = x0 + bw * (s.length.mean - start as f64 + 0.5) / width as f64;
        let _ = write!(
            body,
            "<line class=\"mean\" data-arm=\"{arm}\" data-mean=\"{}\" x1=\"{mx}\" y1=\"{top}\" x2=\"{mx}\" y2=\"{base}\" stroke=\"#222\" stroke-dasharray=\"4 3\"><title>mean {:.1} plies</title></line><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">plies</text>",
            num(s.length.mean),
            s.length.mean,
            x0 + pw / 2.0,
            base + 30.0
        );
    }
    Chart {
        id: "length",
        title: "Game length (plies): histogram per option set".into(),
        w: x0 + pw + 20.0,
        h: 22.0 + panel * run.arms.len() as f64,
        body,
    }
}

/// Who won how, per option set.
fn endings_chart(r: &Report) -> Chart {
    let (x0, pw) = (8.0, 260.0);
    let mut body = String::new();
    let mut y = 4.0;
    let mut widest: f64 = 0.0;
    for (arm, s) in r.arms.iter().enumerate() {
        let _ = write!(
            body,
            "<text x=\"4\" y=\"{}\" font-weight=\"bold\">{}</text>",
            y + 14.0,
            esc(&options_label(&s.options))
        );
        y += ROW;
        for e in &s.endings {
            let share = e.games as f64 / s.games.max(1) as f64;
            let c = match r.arms[arm]
                .seats
                .iter()
                .position(|x| e.winners.first() == Some(&x.player))
            {
                Some(i) => colour(i),
                None => DRAW_COLOUR,
            };
            let text = format!("{} ({})  {}: {}", e.games, pct(share), e.who(), e.ending);
            widest = widest.max(text_width(&text));
            let _ = write!(
                body,
                "<g class=\"ending\" data-arm=\"{arm}\" data-who=\"{who}\" data-ending=\"{ending}\" data-games=\"{}\"><title>{tip}</title><rect x=\"{x0}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"{c}\" fill-opacity=\"0.7\"/><text x=\"{}\" y=\"{}\">{}</text></g>",
                e.games,
                y + 4.0,
                pw * share,
                x0 + pw + 10.0,
                y + 14.0,
                esc(&text),
                who = esc(&e.who()),
                ending = esc(&e.ending),
                tip = esc(&text),
            );
            y += ROW;
        }
    }
    Chart {
        id: "endings",
        title: "How the games ended, per option set".into(),
        w: x0 + pw + 20.0 + widest,
        h: y + 8.0,
        body,
    }
}

/// The run's charts, in the order they are shown.
pub(crate) fn charts(run: &RunFile, r: &Report) -> Vec<Chart> {
    let mut out = vec![rates_chart(r)];
    if let Some(d) = &r.compare {
        out.push(compare_chart(r, d));
    }
    if let Some(name) = &r.sweep {
        out.push(sweep_chart(r, name));
    }
    out.push(length_chart(run, r));
    out.push(endings_chart(r));
    out
}
