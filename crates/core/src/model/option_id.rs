//! Which option a recipe is: the three candidates, the reusable recipe and `learn`'s recipe. Users
//! and artifacts know them by number (`option-3-recipe.yaml`, `"option": 3`, `/rewrite-assist apply
//! 3`), so they serialize and print as that number.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Which option a recipe is, serialized as its number (1 to 5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(into = "u8", try_from = "u8")]
pub enum OptionId {
    /// Option 1: broad catalog recipes for the strategic and tactical intents.
    Wide = 1,
    /// Option 2: one targeted recipe per atomic intent.
    Narrow = 2,
    /// Option 3: synthesized from what validating options 1 and 2 showed.
    Synthesized = 3,
    /// The recommended recipe generalized for other repositories, validated as option 4 (not a
    /// candidate: the decision never sees it).
    Reusable = 4,
    /// `learn`'s recipe, from several PRs (a candidate of no single PR).
    Learned = 5,
}

impl OptionId {
    /// The number users and file names know it by.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// How the option's recipe is made: the one place that ties a number to its strategy
    /// (`learn`'s recipe is a reusable one, made from several PRs).
    pub fn strategy(self) -> super::Strategy {
        match self {
            OptionId::Wide => super::Strategy::Wide,
            OptionId::Narrow => super::Strategy::Narrow,
            OptionId::Synthesized => super::Strategy::Synthesized,
            OptionId::Reusable | OptionId::Learned => super::Strategy::Reusable,
        }
    }
}

impl From<OptionId> for u8 {
    fn from(id: OptionId) -> u8 {
        id.number()
    }
}

impl TryFrom<u8> for OptionId {
    type Error = String;

    fn try_from(number: u8) -> Result<Self, Self::Error> {
        match number {
            1 => Ok(OptionId::Wide),
            2 => Ok(OptionId::Narrow),
            3 => Ok(OptionId::Synthesized),
            4 => Ok(OptionId::Reusable),
            5 => Ok(OptionId::Learned),
            other => Err(format!("there is no option {other} (options are numbered 1 to 5)")),
        }
    }
}

impl fmt::Display for OptionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_goes_through_its_number_and_back() {
        for id in
            [OptionId::Wide, OptionId::Narrow, OptionId::Synthesized, OptionId::Reusable, OptionId::Learned]
        {
            assert_eq!(OptionId::try_from(id.number()), Ok(id));
            assert_eq!(id.to_string(), id.number().to_string());
            assert_eq!(serde_json::to_string(&id).unwrap(), id.number().to_string());
        }
        assert!(OptionId::try_from(0).is_err());
        assert!(OptionId::Wide < OptionId::Synthesized, "ordered as numbered");
    }
}
