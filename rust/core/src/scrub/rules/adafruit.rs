//! Adafruit IO: adafruit-io-key.

use super::{Family, RuleDef, Vector};

pub const ADAFRUIT_IO_KEY: RuleDef = RuleDef::token(
    "adafruit-io-key",
    "Adafruit IO key (aio_ + 28)",
    &["aio_"],
    r"aio_[A-Za-z0-9]{28}",
    32,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Adafruit IO",
    source: "Adafruit IO docs: keys",
    rules: &[ADAFRUIT_IO_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &ADAFRUIT_IO_KEY,
        "ADAFRUIT_IO_KEY=aio_Fp8URzPxAQT4yOJFkARuaa2clJhA",
        "ADAFRUIT_IO_KEY=[REDACTED:adafruit-io-key]",
    ),
    Vector::miss(&ADAFRUIT_IO_KEY, "aio_W8YccDziMK"),
];
