//! What a trace line must be to be admitted (trace.md bounds, E4, numbers every consumer
//! reads back): each refusal is an `Error::Trace` naming the line.

use serde_json::{Map, Value};

use super::version::{bounded, COMPONENTS};
use crate::Error;

pub(super) fn bad(line: u64, reason: impl Into<String>) -> Error {
    Error::Trace {
        line,
        reason: reason.into(),
    }
}

/// Numbers are kept exactly as the trace wrote them, so each must be one every consumer
/// reads back exactly: an integer within the 64-bit range, or a finite double.
pub(super) fn portable_numbers(v: &Value) -> Result<(), String> {
    match v {
        Value::Number(num) => {
            let text = num.to_string();
            let integer = !text.contains(['.', 'e', 'E']);
            let fits = if integer {
                num.as_i64().is_some() || num.as_u64().is_some()
            } else {
                num.as_f64().is_some_and(f64::is_finite)
            };
            if fits {
                Ok(())
            } else if integer {
                Err(format!(
                    "the integer {} is outside the 64-bit range",
                    bounded(&text, 40)
                ))
            } else {
                Err(format!(
                    "the number {} is not a finite double",
                    bounded(&text, 40)
                ))
            }
        }
        Value::Array(items) => items.iter().try_for_each(portable_numbers),
        Value::Object(m) => m.values().try_for_each(portable_numbers),
        _ => Ok(()),
    }
}

pub(super) fn text_field(
    obj: &Map<String, Value>,
    line: u64,
    ty: &str,
    k: &str,
) -> Result<String, Error> {
    match obj.get(k) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(bad(line, format!("{ty}.{k} must be a string"))),
    }
}

/// A count field of `turn_end`: a non-negative integer, missing = 0. `obj` (usage,
/// context, components) must be an object, or null / absent.
fn count(obj: Option<&Value>, line: u64, path: &str, k: &str) -> Result<u64, Error> {
    if let Some(o) = obj.filter(|o| !o.is_null() && !o.is_object()) {
        return Err(bad(
            line,
            format!("turn_end.{path} must be an object, not {o}"),
        ));
    }
    match obj.and_then(|o| o.get(k)) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(line, format!("{path}.{k} must be a non-negative integer"))),
    }
}

/// E4 at admission: the counts of a `turn_end` are non-negative integers and the
/// components never sum past the estimate. Returns the turn's tokens (input + output)
/// and its context estimate.
pub(super) fn check_turn_end(obj: &Map<String, Value>, n: u64) -> Result<(u64, u64), Error> {
    let usage = obj.get("usage");
    let used =
        count(usage, n, "usage", "input")?.saturating_add(count(usage, n, "usage", "output")?);
    let context = obj.get("context");
    let estimate = count(context, n, "context", "estimated_tokens")?;
    let comps = context.and_then(|c| c.get("components"));
    let mut sum: u64 = 0;
    for k in COMPONENTS {
        sum = sum.saturating_add(count(comps, n, "context.components", k)?);
    }
    if sum > estimate {
        return Err(bad(
            n,
            format!(
                "turn_end.context.components sum to {sum}, past estimated_tokens {estimate} \
                 (E4: the components never exceed the estimate)"
            ),
        ));
    }
    Ok((used, estimate))
}
