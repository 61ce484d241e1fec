//! How a variant words what happens: the labels of its events (a strike
//! called a capture, or a fight) and the questions its pending choices ask.
//!
//! Changes when a variant may word something more. Declared in YAML under
//! `words:`; what is not declared keeps the host's wording.

/// A variant's own words (`words: { events: {...}, questions: {...} }`).
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// Event label → the variant's word (`strike: capture`).
    pub events: Vec<(String, String)>,
    /// Choice reason → the question asked (`promotion: "promote to?"`). A
    /// key ending in ` *` matches any reason with that first part, and `{}`
    /// in its question stands for the rest (`"rescue *": "where does the {}
    /// come back?"`).
    pub questions: Vec<(String, String)>,
}

impl Words {
    /// The variant's word for an event label, else the host's `default`.
    /// Labels: `move`, `strike`, `striker_wins`, `defender_wins`,
    /// `both_removed`, `no_effect`, `reveal`, `capture`, `place`, `note`,
    /// `choice`, `end`.
    pub fn event<'a>(&'a self, label: &str, default: &'a str) -> &'a str {
        self.events
            .iter()
            .find(|(k, _)| k == label)
            .map(|(_, v)| v.as_str())
            .unwrap_or(default)
    }

    /// The question a choice asks, from its reason (the reason itself when
    /// none is declared).
    pub fn question(&self, reason: &str) -> String {
        if let Some((_, q)) = self.questions.iter().find(|(k, _)| k == reason) {
            return q.clone();
        }
        for (k, q) in &self.questions {
            if let Some(prefix) = k.strip_suffix(" *") {
                if let Some(rest) = reason
                    .strip_prefix(prefix)
                    .and_then(|r| r.strip_prefix(' '))
                {
                    return q.replace("{}", rest);
                }
            }
        }
        reason.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::Words;

    #[test]
    fn declared_words_replace_the_hosts_and_patterns_fill_in() {
        let w = Words {
            events: vec![("strike".into(), "capture".into())],
            questions: vec![
                ("rescue".into(), "rescue which piece?".into()),
                ("rescue *".into(), "where does the {} come back?".into()),
            ],
        };
        assert_eq!(w.event("strike", "strike"), "capture");
        assert_eq!(w.event("reveal", "reveal"), "reveal");
        assert_eq!(w.question("rescue"), "rescue which piece?");
        assert_eq!(
            w.question("rescue knight"),
            "where does the knight come back?"
        );
        assert_eq!(w.question("promotion"), "promotion");
    }
}
