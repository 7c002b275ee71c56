//! Just enough of a Maven XML file (a POM, settings.xml), read with quick-xml without DTDs or
//! entities beyond XML's own (a POM is untrusted input): its elements with text, flat or grouped
//! by a repeated element. Malformed XML yields what was read before the error.

use std::collections::BTreeMap;

use quick_xml::events::Event;

/// Calls `on_end` with the path of every element as it closes (`project/properties/java.version`
/// as its parts) and its trimmed text (empty for an element with none).
fn walk(xml: &str, mut on_end: impl FnMut(&[String], &str)) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut stack: Vec<String> = Vec::new();
    let mut text = String::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                stack.push(e.local_name().as_ref().to_string());
                text.clear();
            }
            Ok(Event::End(_)) => {
                on_end(&stack, text.trim());
                text.clear();
                stack.pop();
            }
            Ok(Event::Text(t)) => text.push_str(&t.xml10_content()),
            Ok(Event::CData(t)) => text.push_str(&t),
            Ok(Event::GeneralRef(r)) => {
                let name: &str = &r;
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    text.push(c);
                } else if let Some(entity) = quick_xml::escape::resolve_predefined_entity(name) {
                    text.push_str(entity);
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
    }
}

/// Every element with text content, as (`project/properties/java.version`, `17`) pairs.
pub fn leaf_elements(xml: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk(xml, |path, text| {
        if !text.is_empty() {
            out.push((path.join("/"), text.to_string()));
        }
    });
    out
}

/// For each element whose path ends with `suffix` (`mirrors/mirror`,
/// `repositories/repository`), the texts of its direct children by name; in document order.
pub(crate) fn elements(xml: &str, suffix: &str) -> Vec<BTreeMap<String, String>> {
    let want: Vec<&str> = suffix.split('/').collect();
    let mut open: BTreeMap<String, String> = BTreeMap::new();
    let mut out = Vec::new();
    walk(xml, |path, text| {
        if ends_with(path, &want) {
            out.push(std::mem::take(&mut open));
        } else if path.len() > want.len() && ends_with(&path[..path.len() - 1], &want) {
            open.insert(path[path.len() - 1].clone(), text.to_string());
        }
    });
    out
}

fn ends_with(path: &[String], want: &[&str]) -> bool {
    path.len() >= want.len() && path[path.len() - want.len()..].iter().zip(want).all(|(a, b)| a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_children_of_each_element_at_a_path() {
        let xml = r#"<settings><mirrors>
              <mirror><id>a</id><url>https://a.example/x?y=1&amp;z=2</url><mirrorOf>*</mirrorOf></mirror>
              <mirror><id>b</id><url> http://b.example </url></mirror>
            </mirrors><profiles><profile><repositories><repository><id>c</id><url>https://c.example</url>
            <releases><enabled>true</enabled></releases></repository></repositories></profile></profiles></settings>"#;
        let mirrors = elements(xml, "mirrors/mirror");
        assert_eq!(mirrors.len(), 2);
        assert_eq!(mirrors[0]["url"], "https://a.example/x?y=1&z=2");
        assert_eq!(mirrors[1]["url"], "http://b.example");
        let repositories = elements(xml, "profile/repositories/repository");
        assert_eq!(repositories[0]["id"], "c");
        assert!(!repositories[0].contains_key("enabled"));
        assert!(elements("<a><b>", "a/b").is_empty());
    }

    #[test]
    fn leaves_with_entities_and_cdata() {
        let pairs = leaf_elements("<a><b>x &amp; y&#33;</b><c><![CDATA[<z>]]></c></a>");
        assert_eq!(
            pairs,
            vec![("a/b".to_string(), "x & y!".to_string()), ("a/c".to_string(), "<z>".to_string())]
        );
    }
}
