//! NuGet: nuget-api-key.

use super::{Family, RuleDef, Vector};

pub const NUGET_API_KEY: RuleDef = RuleDef::token(
    "nuget-api-key",
    "NuGet API key (oy2 + 43 base32)",
    &["oy2"],
    r"oy2[a-z2-7]{43}",
    46,
);

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "NuGet",
    source: "GL, TH, NP, DS, MS",
    rules: &[NUGET_API_KEY],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &NUGET_API_KEY,
        "dotnet nuget push pkg.nupkg --api-key oy2rk4ndggqjyz4as5ybq3bkfteqrnloojijcojb7vx4sn --source https://api.nuget.org/v3/index.json",
        "dotnet nuget push pkg.nupkg --api-key [REDACTED:nuget-api-key] --source https://api.nuget.org/v3/index.json",
    ),
    Vector::hit(
        &NUGET_API_KEY,
        "NUGET_KEY=oy2aji3wlbez2qs3xrlqsb5w7gq4ty55glluu547ejxu7z",
        "NUGET_KEY=[REDACTED:nuget-api-key]",
    ),
    Vector::miss(&NUGET_API_KEY, "oy2mxelsaseswjtbvpguhkmylgbvgkhplajbwmcluvmak"),
    Vector::miss(&NUGET_API_KEY, "toy2ivubqkpnqgllgeezduplukahdbjiesigoazcwticvme"),
];
