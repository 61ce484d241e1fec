//! `simulate --report`: a run's statistics as charts, in one SVG (`.svg`)
//! or a self-contained HTML page (`.html`: inline SVG and CSS, no script,
//! nothing fetched).
//!
//! The numbers come from [`report`] (the same as `--json`: the Wilson
//! intervals, the paired tests of `--compare`), and every mark carries them
//! as `data-` attributes and a `<title>` (its tooltip), so what is drawn
//! can be read back and checked. A small SVG writer of our own rather than
//! a plotting crate: it can put those attributes on each mark, and it needs
//! no font metrics.

use std::fmt::Write;

use crate::charts::{charts, esc, rate_rows, FONT};
use crate::play::simulate::{options_label, pct, report, settings_text, RunFile};

/// The report as one SVG: the charts one under another.
pub fn svg(run: &RunFile) -> String {
    let r = report(run);
    let charts = charts(run, &r);
    let mut body = String::new();
    let mut y = 8.0;
    let _ = write!(
        body,
        "<text x=\"8\" y=\"{}\" font-size=\"18\" font-weight=\"bold\">{}</text><text x=\"8\" y=\"{}\" fill=\"#555\">{}</text>",
        y + 16.0,
        esc(&run.variant),
        y + 36.0,
        esc(&settings_text(run, &r))
    );
    y += 52.0;
    let mut w: f64 = 600.0;
    for c in &charts {
        let _ = write!(
            body,
            "<text x=\"8\" y=\"{}\" font-size=\"14\" font-weight=\"bold\">{}</text><g transform=\"translate(8 {})\">{}</g>",
            y + 16.0,
            esc(&c.title),
            y + 26.0,
            c.svg()
        );
        y += 26.0 + c.h + 16.0;
        w = w.max(c.w + 16.0);
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"{FONT}\"><title>sandtable simulate: {t}</title><rect width=\"100%\" height=\"100%\" fill=\"white\"/>{body}</svg>\n",
        w = w.ceil(),
        h = y.ceil(),
        t = esc(&run.variant),
    )
}

const STYLE: &str = "body{font-family:sans-serif;color:#222;margin:1.5em auto;max-width:1100px;padding:0 1em}\
h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.15em;margin:1.6em 0 .4em}\
p.settings{color:#555;margin-top:0}svg.chart{display:block;max-width:100%;height:auto}\
table{border-collapse:collapse;margin:.6em 0;font-size:.9em}th,td{padding:2px 10px;border-bottom:1px solid #eee;text-align:right}\
th:first-child,td:first-child{text-align:left}details{margin:.4em 0}summary{cursor:pointer;color:#555}";

fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            let _ = write!(out, "<td>{}</td>", esc(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// The numbers of a chart as a table, folded under it.
fn numbers(head: &[&str], rows: &[Vec<String>]) -> String {
    format!(
        "<details><summary>the numbers</summary>{}</details>",
        table(head, rows)
    )
}

/// The report as a self-contained HTML page.
pub fn html(run: &RunFile) -> String {
    let r = report(run);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>sandtable simulate: {v}</title><style>{STYLE}</style></head><body><h1>{v}</h1><p class=\"settings\">{s}</p>",
        v = esc(&run.variant),
        s = esc(&settings_text(run, &r))
    );
    for c in charts(run, &r) {
        let _ = write!(
            out,
            "<section id=\"{}\"><h2>{}</h2>{}",
            c.id,
            esc(&c.title),
            c.svg()
        );
        let rows: Vec<Vec<String>> = match c.id {
            "rates" | "sweep" => r
                .arms
                .iter()
                .enumerate()
                .flat_map(|(i, s)| rate_rows(s, i))
                .map(|row| {
                    vec![
                        options_label(row.options),
                        row.label(),
                        row.rate.count.to_string(),
                        pct(row.rate.rate),
                        format!("[{}, {}]", pct(row.rate.ci95.0), pct(row.rate.ci95.1)),
                    ]
                })
                .collect(),
            "compare" => r
                .compare
                .iter()
                .flatten()
                .map(|d| {
                    vec![
                        d.name.clone(),
                        format!("{:.4}", d.a),
                        format!("{:.4}", d.b),
                        format!("{:+.4}", d.diff),
                        d.test.clone(),
                        d.pairs.to_string(),
                        format!("{:.4}", d.p_value),
                        if d.significant { "yes" } else { "no" }.into(),
                    ]
                })
                .collect(),
            "length" => r
                .arms
                .iter()
                .map(|s| {
                    vec![
                        options_label(&s.options),
                        format!("{:.1}", s.length.mean),
                        format!("{:.1}", s.length.sd),
                        s.length.min.to_string(),
                        s.length.max.to_string(),
                    ]
                })
                .collect(),
            _ => r
                .arms
                .iter()
                .flat_map(|s| {
                    s.endings.iter().map(|e| {
                        vec![
                            options_label(&s.options),
                            e.who(),
                            e.ending.clone(),
                            e.games.to_string(),
                        ]
                    })
                })
                .collect(),
        };
        let head: &[&str] = match c.id {
            "rates" | "sweep" => &["options", "statistic", "games", "rate", "95% CI"],
            "compare" => &[
                "statistic",
                "A",
                "B",
                "B - A",
                "test",
                "pairs",
                "p",
                "significant",
            ],
            "length" => &["options", "mean", "sd", "min", "max"],
            _ => &["options", "result", "ending", "games"],
        };
        if c.id != "sweep" {
            out.push_str(&numbers(head, &rows));
        }
        out.push_str("</section>");
    }
    out.push_str("<footer><p class=\"settings\">Made by <code>sandtable simulate --report</code>; the numbers are those of <code>--json</code>.</p></footer></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::bins;
    use crate::play::simulate::{Arm, GameResult};

    fn run_of(plies: &[u32]) -> RunFile {
        RunFile {
            variant: "v<&>".into(),
            players: vec!["red".into(), "blue".into()],
            seats: vec!["random".into(), "random".into()],
            seed: 1,
            games: plies.len() as u64,
            shard: None,
            sweep: None,
            arms: vec![Arm {
                options: vec![],
                games: plies
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| GameResult {
                        index: i as u64,
                        seed: i as u64,
                        winners: vec![(i % 2) as u8],
                        ending: "<script>".into(),
                        plies: p,
                        search: vec![],
                    })
                    .collect(),
            }],
        }
    }

    #[test]
    fn length_bins_cover_every_game_once_in_at_most_thirty_bins() {
        for plies in [vec![7], vec![1, 2, 3], vec![3, 400, 17, 9_999], vec![0, 31]] {
            let run = run_of(&plies);
            let (start, width, count) = bins(&run).unwrap();
            assert!(count <= 30, "{plies:?}: {count} bins");
            for p in plies {
                assert!(start <= p && p < start + width * count as u32, "{p}");
            }
        }
    }

    #[test]
    fn text_from_the_rules_is_escaped_in_the_report() {
        let run = run_of(&[1, 2]);
        for page in [html(&run), svg(&run)] {
            assert!(!page.contains("<script>"), "{page}");
            assert!(page.contains("&lt;script&gt;") && page.contains("v&lt;&amp;&gt;"));
        }
    }
}
