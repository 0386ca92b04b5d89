//! Grafana: grafana-token.

use super::{Family, RuleDef, Vector};

pub const GRAFANA_TOKEN: RuleDef = RuleDef::token(
    "grafana-token",
    "Grafana service account token (glsa_), Cloud token (glc_) or API key (eyJrIjoi…)",
    &["glsa_", "glc_", "eyJrIjoi"],
    r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,3}|eyJrIjoi[A-Za-z0-9]{70,}={0,3}",
    512,
)
.overflow("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Grafana",
    source: "GL, TH, NP, DS",
    rules: &[GRAFANA_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &GRAFANA_TOKEN,
        "GRAFANA_SA=glsa_Qr5FAT9Ty3oMauFKi6gxXRdxMijqTCW8_dd2ae604",
        "GRAFANA_SA=[REDACTED:grafana-token]",
    ),
    Vector::hit(
        &GRAFANA_TOKEN,
        "{\"grafana_cloud\": \"glc_WUJV58iaQ1JNYr0oFneXgsg5tJloDWlBwecTNzQcnLYHOXflXIh6xKYCIotKpweR4cg20HBOmxsjbNBCC4LZMMQkR7SrJQ8U8xwJ74AwVUBa+R/JolgwFtHH==\"}",
        "{\"grafana_cloud\": \"[REDACTED:grafana-token]\"}",
    ),
    Vector::hit(
        &GRAFANA_TOKEN,
        "GF_KEY=eyJrIjoiKLpDCjcVDLWFClkZzw8pBc8xWuDnIkRrMsUVbW9RIUHfrlAqzKxpVahaq6077kF0o1WUSBuaSLlK6Gft==",
        "GF_KEY=[REDACTED:grafana-token]",
    ),
    Vector::miss(&GRAFANA_TOKEN, "glsa_WStDjzoWOl1U8Qxzgb5OkjyhhXZ70Vzi_89fe02a"),
    Vector::miss(&GRAFANA_TOKEN, "glc_PSbmNcnDWXLfUAEyhgvNFxXA6Vxvb16"),
];
