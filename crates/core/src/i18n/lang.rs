//! The languages the catalogue holds, and how a locale name (`zh_CN.UTF-8`, `zh-CN`, `C`)
//! picks one.

use std::fmt;
use std::str::FromStr;

use serde::Deserialize;

/// A language of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(try_from = "String")]
pub enum Lang {
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The BCP 47 tag: `en`, `zh-CN`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language a locale name asks for: `zh_CN.UTF-8`, `zh-CN`, `zh_SG` and `zh` give
    /// Chinese (the catalogue's one Chinese is Simplified, nearer to any Chinese reader than
    /// English); `en_GB.UTF-8`, `C` and `POSIX` English; `None` for one it holds nothing for.
    fn from_locale(name: &str) -> Option<Lang> {
        // language[_territory][.codeset][@modifier], or a BCP 47 tag.
        let base = name.split(['.', '@']).next().unwrap_or_default();
        if matches!(base, "C" | "POSIX") {
            return Some(Lang::En);
        }
        let id: unic_langid::LanguageIdentifier = base.replace('_', "-").parse().ok()?;
        match id.language.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::ZhCn),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// A `--lang` or `[ui] language` the catalogue has no language for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?}: expected en or zh-CN")]
pub struct UnknownLang(String);

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::from_locale(s.trim()).ok_or_else(|| UnknownLang(s.to_string()))
    }
}

impl TryFrom<String> for Lang {
    type Error = UnknownLang;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

/// The language to show: `flag` (`--lang`), else `config` (`[ui] language`), else the first
/// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty, as POSIX orders them,
/// read through `env`; English where that one names a language the catalogue lacks.
pub fn choose(
    flag: Option<Lang>,
    config: Option<Lang>,
    env: impl Fn(&str) -> Option<String>,
) -> Lang {
    flag.or(config)
        .or_else(|| {
            ["LC_ALL", "LC_MESSAGES", "LANG"]
                .into_iter()
                .find_map(|var| env(var).filter(|v| !v.is_empty()))
                .map(|locale| Lang::from_locale(&locale).unwrap_or_default())
        })
        .unwrap_or_default()
}
