//! Slash commands in PR comments: `/rewrite-assist [run]`, `/rewrite-assist apply [reusable|1|2|3]`,
//! `/rewrite-assist help`. A command starts a line of ordinary text; anything in code (fenced,
//! indented or inline), block quotes and HTML comments is ignored, so quoting an earlier command
//! or showing one in the help text never triggers a run. Markdown is read with pulldown-cmark.

use std::ops::Range;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

pub(crate) const PREFIX: &str = "/rewrite-assist";

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Command {
    /// Analyze the PR (again) and update the results comment.
    Run,
    /// Propose this recipe (None: the reusable one) as `rewrite.yml` of the build.
    Apply(Option<super::choice::RecipeChoice>),
    Help,
    /// `/rewrite-assist` followed by something it does not understand (the text after the prefix):
    /// answered with the help text.
    Unknown(String),
}

impl Command {
    /// The command's kind, for the conversation table.
    pub(crate) fn kind(&self) -> super::conversation::CommandKind {
        use super::conversation::CommandKind;
        match self {
            Command::Run => CommandKind::Run,
            Command::Apply(_) => CommandKind::Apply,
            Command::Help => CommandKind::Help,
            Command::Unknown(_) => CommandKind::Unknown,
        }
    }
}

/// The first command in a comment body, if any.
pub(crate) fn parse(body: &str) -> Option<Command> {
    let text = plain_text_ranges(body);
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let start = offset + (line.len() - line.trim_start().len());
        offset += line.len();
        let trimmed = line.trim();
        let Some(rest) = trimmed.strip_prefix(PREFIX) else { continue };
        if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
            continue;
        }
        if !text.iter().any(|r| r.contains(&start)) {
            continue;
        }
        return Some(arguments(rest));
    }
    None
}

fn arguments(rest: &str) -> Command {
    let words: Vec<String> = rest.split_whitespace().map(str::to_lowercase).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] | ["run"] => Command::Run,
        ["apply"] => Command::Apply(None),
        ["apply", which] => match super::choice::RecipeChoice::parse(which) {
            Some(choice) => Command::Apply(Some(choice)),
            None => Command::Unknown(rest.trim().to_string()),
        },
        ["help"] => Command::Help,
        _ => Command::Unknown(rest.trim().to_string()),
    }
}

/// Byte ranges of ordinary text: outside code blocks, block quotes and HTML (inline code and
/// inline HTML are separate events, so they never count as text).
fn plain_text_ranges(body: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut ignored_depth = 0usize;
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::BlockQuote(_) | Tag::HtmlBlock) => ignored_depth += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::BlockQuote(_) | TagEnd::HtmlBlock) => {
                ignored_depth = ignored_depth.saturating_sub(1)
            }
            Event::Text(_) if ignored_depth == 0 => ranges.push(range),
            _ => {}
        }
    }
    ranges
}

/// The help text (markdown), also the answer to an unknown command.
pub(crate) fn help() -> String {
    format!(
        "**rewrite-assist** turns this pull request into a validated OpenRewrite recipe. \
Write a command on a line of its own in a comment:\n\n\
| command | what it does |\n\
|---|---|\n\
| `{PREFIX}` or `{PREFIX} run` | analyze this pull request again and update the results comment |\n\
| `{PREFIX} apply [reusable\\|1\\|2\\|3]` | add that recipe (default: the reusable one, when it is ready to roll out) to `rewrite.yml` of this build: a commit on this pull request, or a pull request of its own |\n\
| `{PREFIX} help` | show this help |\n\n\
Running and applying need write access to the repository. Commands in code, quotes and HTML comments are ignored.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::github::choice::RecipeChoice;

    #[test]
    fn commands_and_arguments() {
        assert_eq!(parse("/rewrite-assist"), Some(Command::Run));
        assert_eq!(parse("/rewrite-assist run"), Some(Command::Run));
        assert_eq!(parse("  /rewrite-assist   RUN  "), Some(Command::Run));
        assert_eq!(parse("/rewrite-assist apply"), Some(Command::Apply(None)));
        assert_eq!(parse("/rewrite-assist apply 2"), Some(Command::Apply(Some(RecipeChoice::Two))));
        assert_eq!(
            parse("/rewrite-assist apply Reusable"),
            Some(Command::Apply(Some(RecipeChoice::Reusable)))
        );
        assert_eq!(parse("/rewrite-assist help"), Some(Command::Help));
        assert_eq!(parse("/rewrite-assist apply 4"), Some(Command::Apply(Some(RecipeChoice::Reusable))));
        assert_eq!(parse("/rewrite-assist apply 5"), Some(Command::Unknown("apply 5".into())));
        assert_eq!(parse("/rewrite-assist apply two"), Some(Command::Unknown("apply two".into())));
        assert_eq!(parse("/rewrite-assist run now"), Some(Command::Unknown("run now".into())));
        assert_eq!(parse("/rewrite-assist frobnicate"), Some(Command::Unknown("frobnicate".into())));
    }

    #[test]
    fn a_command_starts_a_line_of_text() {
        assert_eq!(
            parse("Looks good.\n\n/rewrite-assist apply 1\n\nThanks!"),
            Some(Command::Apply(Some(RecipeChoice::One)))
        );
        assert_eq!(parse("Looks good.\n/rewrite-assist run"), Some(Command::Run), "a soft line break");
        assert_eq!(parse("- /rewrite-assist run"), None, "not at the start of the line");
        assert_eq!(parse("please don't /rewrite-assist run yet"), None);
        assert_eq!(parse("/rewrite-assistant run"), None);
        assert_eq!(parse("nothing to see"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn code_quotes_and_html_comments_are_ignored() {
        assert_eq!(parse("```\n/rewrite-assist run\n```"), None, "fenced code");
        assert_eq!(parse("~~~md\n/rewrite-assist apply 2\n~~~"), None, "tilde fence");
        assert_eq!(parse("Example:\n\n    /rewrite-assist run\n"), None, "indented code");
        assert_eq!(parse("`/rewrite-assist run`"), None, "inline code");
        assert_eq!(parse("> /rewrite-assist run\n"), None, "block quote");
        assert_eq!(parse("> quoted\n> /rewrite-assist run\n\nok"), None, "inside a longer quote");
        assert_eq!(parse("<!--\n/rewrite-assist run\n-->"), None, "HTML comment block");
        assert_eq!(parse("note <!-- hidden\n/rewrite-assist run -->"), None, "inline HTML comment");
        // The first real command wins, after ignored ones.
        assert_eq!(parse("> /rewrite-assist apply 1\n\n/rewrite-assist help"), Some(Command::Help));
    }

    #[test]
    fn the_help_text_does_not_trigger_itself() {
        assert_eq!(parse(&help()), None);
        assert!(help().contains("/rewrite-assist apply"));
    }
}
