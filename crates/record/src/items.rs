//! A container's items as one viewer sees them: how many there are (when
//! the declared `count` lets the viewer see it), and each item's face when
//! the declared `contents` or the viewer's own peek shows it. A bag has no
//! order to see: the faces the viewer knows come first, sorted.

use crate::base::state::{Container, PlayerId};
use crate::rules::variant::flow::Order;
use crate::view::Viewer;
use crate::view::Views;

impl<'e> Views<'e> {
    /// `None` when the container is not a declared one or the viewer may
    /// not see how many items it holds; else one entry per item, `None`
    /// for a face the viewer does not know.
    pub(crate) fn view_items(&self, c: &Container, viewer: Viewer) -> Option<Vec<Option<String>>> {
        let d = self
            .engine
            .variant
            .containers
            .iter()
            .find(|d| d.name == c.name)?;
        let who: Option<PlayerId> = match viewer {
            Viewer::Player(p) => Some(p),
            Viewer::Public => None,
            Viewer::Omniscient => {
                return Some(c.items.iter().map(|i| Some(i.value.clone())).collect())
            }
        };
        if !d.count.lets(who, c.owner) {
            return None;
        }
        let all = d.contents.lets(who, c.owner);
        let mut out: Vec<Option<String>> = c
            .items
            .iter()
            .map(|i| {
                let peeked = who.is_some_and(|p| i.known_by & (1 << p) != 0);
                (all || peeked).then(|| i.value.clone())
            })
            .collect();
        if d.order == Order::Bag {
            // Known faces first, sorted; the unknown ones carry no place.
            out.sort_by(|a, b| match (a, b) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
        }
        Some(out)
    }

    /// The items as words for the summary lines (`trout ? ?`: one word per
    /// item, `?` for a face the viewer does not know); nothing when the
    /// viewer may not see how many there are.
    pub(crate) fn items_text(&self, c: &Container, viewer: Viewer) -> Vec<String> {
        self.view_items(c, viewer)
            .unwrap_or_default()
            .into_iter()
            .map(|i| i.unwrap_or_else(|| "?".into()))
            .collect()
    }
}
