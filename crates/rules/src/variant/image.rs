//! Piece images (a kind's `image:`): an SVG file read at load, bounded in
//! size and cut down to a few shapes, because the picture is embedded in
//! pages other people view. Only plain shapes pass (`path`, `circle`,
//! `rect`, ...) with geometry and stroke attributes; scripts, event
//! attributes, styles, links and references to anything outside the file
//! are refused with the reason. Colours are not the file's to choose:
//! every shape is filled with the owner's colour and stroked in the ink
//! that contrasts with it, and `fill="none"` draws a line in the ink alone.
//!
//! Changes when what an image may hold changes.

use std::path::Path;

/// The largest image file read, in bytes.
pub const MAX_IMAGE_BYTES: u64 = 64 * 1024;

/// A kind's image, checked: the root's `viewBox` and the shapes inside,
/// written out again from what was checked (so nothing unchecked passes).
#[derive(Clone, Debug, PartialEq)]
pub struct PieceImage {
    pub view_box: String,
    pub body: String,
}

/// The elements an image may hold (`svg` only as its root).
const ELEMENTS: &[&str] = &[
    "g", "path", "circle", "ellipse", "rect", "line", "polyline", "polygon",
];

/// The attributes a shape may carry.
const ATTRIBUTES: &[&str] = &[
    "d",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x",
    "y",
    "width",
    "height",
    "x1",
    "y1",
    "x2",
    "y2",
    "points",
    "transform",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-linejoin",
    "stroke-linecap",
    "stroke-miterlimit",
    "fill-rule",
];

/// Reads and checks the image at `path` (named `shown` in messages).
pub fn read_image(path: &Path, shown: &str) -> Result<PieceImage, String> {
    if path.extension().and_then(|e| e.to_str()) != Some("svg") {
        return Err(format!("`{shown}` is not an .svg file"));
    }
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if meta.len() > MAX_IMAGE_BYTES {
        return Err(format!(
            "`{shown}` is {} bytes; an image may have at most {MAX_IMAGE_BYTES}",
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    parse_image(&text).map_err(|e| format!("`{shown}`: {e}"))
}

/// One tag: its name, attributes, whether it closes (`</g>`) or is empty
/// (`<path/>`).
struct Tag {
    name: String,
    attrs: Vec<(String, String)>,
    closing: bool,
    empty: bool,
}

/// Checks an SVG's text and keeps its shapes.
pub fn parse_image(text: &str) -> Result<PieceImage, String> {
    let mut rest = text.trim_start_matches('\u{feff}');
    let mut depth: Vec<String> = Vec::new();
    let mut view_box = None;
    let mut body = String::new();
    let mut skipping = 0usize;
    loop {
        let Some(open) = rest.find('<') else {
            if !rest.trim().is_empty() && skipping == 0 {
                return Err("text outside the SVG element".into());
            }
            break;
        };
        let between = &rest[..open];
        if !between.trim().is_empty() && skipping == 0 {
            return Err(format!(
                "text `{}` between shapes (only shapes are drawn)",
                between.trim().chars().take(20).collect::<String>()
            ));
        }
        rest = &rest[open..];
        if let Some(r) = rest.strip_prefix("<!--") {
            let end = r.find("-->").ok_or("a comment is not closed")?;
            rest = &r[end + 3..];
            continue;
        }
        if rest.starts_with("<?") {
            let end = rest.find("?>").ok_or("`<?` is not closed")?;
            rest = &rest[end + 2..];
            continue;
        }
        if rest.starts_with("<!") {
            return Err("`<!DOCTYPE`, entities and CDATA are not allowed".into());
        }
        let end = rest.find('>').ok_or("a tag is not closed")?;
        let tag = tag(&rest[1..end])?;
        rest = &rest[end + 1..];
        if tag.closing {
            match depth.pop() {
                Some(n) if n == tag.name => {}
                _ => return Err(format!("`</{}>` closes nothing", tag.name)),
            }
            if skipping > 0 {
                skipping -= 1;
            } else if !depth.is_empty() {
                body.push_str(&format!("</{}>", tag.name));
            }
            continue;
        }
        let root = depth.is_empty();
        if root && view_box.is_some() {
            return Err("more than one root element".into());
        }
        if root {
            if tag.name != "svg" {
                return Err(format!("the root element is `<{}>`, not `<svg>`", tag.name));
            }
            view_box = Some(root_view_box(&tag)?);
        } else if skipping > 0 || tag.name == "title" || tag.name == "desc" {
            // Text for people reading the file: not drawn, not kept.
            if !tag.empty {
                skipping += 1;
            }
        } else {
            body.push_str(&shape(&tag)?);
        }
        if !tag.empty {
            depth.push(tag.name);
        }
    }
    if let Some(open) = depth.last() {
        return Err(format!("`<{open}>` is not closed"));
    }
    let view_box = view_box.ok_or("no `<svg>` element")?;
    if body.is_empty() {
        return Err("the image holds no shape".into());
    }
    Ok(PieceImage { view_box, body })
}

/// The root's `viewBox` (four numbers); other root attributes are
/// namespaces and sizes, and are dropped, except that events and styles
/// are refused there too.
fn root_view_box(tag: &Tag) -> Result<String, String> {
    for (k, _) in &tag.attrs {
        refuse_attribute(k)?;
    }
    let vb = tag
        .attrs
        .iter()
        .find(|(k, _)| k == "viewBox")
        .map(|(_, v)| v.as_str())
        .ok_or("the `<svg>` element needs a `viewBox`")?;
    let numbers: Vec<f64> = vb
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`viewBox=\"{vb}\"` is not four numbers"))?;
    if numbers.len() != 4 || numbers[2] <= 0.0 || numbers[3] <= 0.0 {
        return Err(format!("`viewBox=\"{vb}\"` is not four numbers"));
    }
    Ok(numbers
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(" "))
}

/// Refuses what may run or fetch: events, styles, links.
fn refuse_attribute(name: &str) -> Result<(), String> {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("on") {
        return Err(format!("event attribute `{name}` is not allowed"));
    }
    if lower.ends_with("href") || lower == "src" {
        return Err(format!(
            "`{name}`: references to other documents are not allowed"
        ));
    }
    if lower == "style" {
        return Err("`style` is not allowed (colours are the owner's)".into());
    }
    Ok(())
}

/// A shape written out from its checked attributes.
fn shape(tag: &Tag) -> Result<String, String> {
    if !ELEMENTS.contains(&tag.name.as_str()) {
        return Err(match tag.name.as_str() {
            "script" => "`<script>` is not allowed".to_string(),
            n => format!("`<{n}>` is not allowed (shapes: {})", ELEMENTS.join(", ")),
        });
    }
    let mut out = format!("<{}", tag.name);
    for (k, v) in &tag.attrs {
        refuse_attribute(k)?;
        if !ATTRIBUTES.contains(&k.as_str()) {
            return Err(format!(
                "attribute `{k}` of `<{}>` is not allowed",
                tag.name
            ));
        }
        if (k == "fill" || k == "stroke") && v != "none" {
            return Err(format!(
                "`{k}=\"{v}\"`: shapes take the owner's colours; only `{k}=\"none\"` may be given"
            ));
        }
        let plain = |c: char| c.is_ascii_alphanumeric() || " .,-+()#%".contains(c);
        if !v.chars().all(plain) || v.contains("url") {
            return Err(format!(
                "`{k}=\"{v}\"` holds characters a shape does not need"
            ));
        }
        out.push_str(&format!(" {k}=\"{v}\""));
    }
    out.push_str(if tag.empty { "/>" } else { ">" });
    Ok(out)
}

/// Splits `name a="1" b='2' /` (a tag without its angle brackets).
fn tag(inner: &str) -> Result<Tag, String> {
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, inner),
    };
    let (empty, inner) = match inner.trim_end().strip_suffix('/') {
        Some(r) => (true, r),
        None => (false, inner),
    };
    let inner = inner.trim();
    let name_end = inner
        .find(|c: char| c.is_whitespace())
        .unwrap_or(inner.len());
    let name = inner[..name_end].to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == ':') {
        return Err(format!("`<{inner}>` is not a tag"));
    }
    let mut attrs = Vec::new();
    let mut rest = inner[name_end..].trim_start();
    while !rest.is_empty() {
        let eq = rest
            .find('=')
            .ok_or_else(|| format!("attribute `{rest}` has no value"))?;
        let key = rest[..eq].trim().to_string();
        let after = rest[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or_else(|| format!("attribute `{key}`'s value is not quoted"))?;
        let close = after[1..]
            .find(quote)
            .ok_or_else(|| format!("attribute `{key}`'s value is not closed"))?;
        attrs.push((key, after[1..1 + close].to_string()));
        rest = after[close + 2..].trim_start();
    }
    Ok(Tag {
        name,
        attrs,
        closing,
        empty,
    })
}

#[cfg(test)]
mod tests {
    use super::parse_image;

    #[test]
    fn shapes_pass_and_everything_that_may_run_or_fetch_is_refused() {
        let ok = parse_image(
            "<?xml version=\"1.0\"?>\n<!-- a ring -->\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><title>Ring</title><g><circle cx=\"5\" cy=\"5\" r=\"4\"/><path d=\"M1 5 H9\" fill=\"none\"/></g></svg>",
        )
        .unwrap();
        assert_eq!(ok.view_box, "0 0 10 10");
        assert_eq!(
            ok.body,
            "<g><circle cx=\"5\" cy=\"5\" r=\"4\"/><path d=\"M1 5 H9\" fill=\"none\"/></g>"
        );
        for (svg, why) in [
            (
                "<svg viewBox=\"0 0 1 1\"><script>alert(1)</script></svg>",
                "`<script>` is not allowed",
            ),
            (
                "<svg viewBox=\"0 0 1 1\" onload=\"alert(1)\"><rect/></svg>",
                "event attribute `onload`",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><rect onclick=\"x()\"/></svg>",
                "event attribute `onclick`",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><use href=\"http://x/y.svg#a\"/></svg>",
                "`<use>` is not allowed",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><rect xlink:href=\"#a\"/></svg>",
                "references to other documents",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><rect fill=\"url(http://x)\"/></svg>",
                "owner's colours",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><rect transform=\"url(x)\"/></svg>",
                "characters",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><rect style=\"fill:red\"/></svg>",
                "`style` is not allowed",
            ),
            (
                "<!DOCTYPE svg [<!ENTITY x \"y\">]><svg viewBox=\"0 0 1 1\"><rect/></svg>",
                "entities",
            ),
            (
                "<svg viewBox=\"0 0 1 1\"><foreignObject/></svg>",
                "`<foreignObject>` is not allowed",
            ),
            ("<html><body/></html>", "not `<svg>`"),
            ("<svg><rect/></svg>", "needs a `viewBox`"),
            ("<svg viewBox=\"0 0 1 1\"><rect/>", "`<svg>` is not closed"),
            (
                "<svg viewBox=\"0 0 1 1\">hello<rect/></svg>",
                "text `hello`",
            ),
            ("not an svg at all", "text outside"),
        ] {
            let e = parse_image(svg).unwrap_err();
            assert!(e.contains(why), "{svg}: {e}");
        }
    }
}
