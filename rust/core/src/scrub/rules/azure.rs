//! Microsoft Azure: azure-storage-key, azure-shared-access-key, azure-sas-token, azure-ad-client-secret, azure-devops-pat, azure-devops-pat-legacy.

use super::{Before, Family, RuleDef, Tier, Vector};

pub const AZURE_STORAGE_KEY: RuleDef = RuleDef::context(
    "azure-storage-key",
    "Azure storage account key (88 chars) after AccountKey= / storage_key",
    &["accountkey", "account_key", "storagekey", "storage_key"],
    r#"(?i:account_?key|storage_?key)(?:\\?["'])?[ \t]{0,32}[:=][ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9+/]{86}==)"#,
    168,
)
.right_guard("[A-Za-z0-9+/=]");

pub const AZURE_SHARED_ACCESS_KEY: RuleDef = RuleDef::context(
    "azure-shared-access-key",
    "Azure Service Bus / Event Hubs / IoT SharedAccessKey=",
    &["sharedaccesskey"],
    r"(?i:sharedaccesskey)[ \t]{0,32}=[ \t]{0,32}(?P<secret>[A-Za-z0-9+/]{20,100}={0,2})",
    182,
)
.right_guard("[A-Za-z0-9+/=]");

pub const AZURE_SAS_TOKEN: RuleDef = RuleDef::context(
    "azure-sas-token",
    "signature (sig=) of an Azure shared access signature URL or connection string",
    &["?sig=", "&sig="],
    r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{20,}={0,2})",
    512,
)
.overflow("[A-Za-z0-9%+/=]");

pub const AZURE_AD_CLIENT_SECRET: RuleDef = RuleDef {
    id: "azure-ad-client-secret",
    tier: Tier::Token,
    description: "Azure AD / Entra client secret (…Q~…)",
    keywords: &["Q~"],
    pattern: r"[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34}",
    before: Some(Before {
        class: "[a-zA-Z0-9_~.]",
        min: 4,
        max: 4,
    }),
    left_guard: "",
    right_guard: "[a-zA-Z0-9_~.-]",
    max_len: 40,
    overflow: "",
    validator: None,
    yields_to: None,
};

pub const AZURE_DEVOPS_PAT: RuleDef = RuleDef::token(
    "azure-devops-pat",
    "Azure DevOps personal access token, identifiable format (76 + AZDO + 4, 84 chars)",
    &["AZDO"],
    r"[a-zA-Z0-9]{76}AZDO[a-zA-Z0-9]{4}",
    84,
)
.before("[a-zA-Z0-9]", 76, 76);

pub const AZURE_DEVOPS_PAT_LEGACY: RuleDef = RuleDef::context(
    "azure-devops-pat-legacy",
    "Azure DevOps legacy PAT (52 lowercase alphanumerics) after a devops / ado key",
    &["devops", "ado_pat", "ado_token", "azdo_pat", "azdo_token"],
    r#"(?i:devops|ado_pat|ado_token|azdo_pat|azdo_token)[A-Za-z0-9_.-]{0,32}(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[a-z0-9]{52})"#,
    164,
)
.right_guard("[A-Za-z0-9]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Microsoft Azure",
    source: "DS, NP, GL, TH, MS",
    rules: &[
        AZURE_STORAGE_KEY,
        AZURE_SHARED_ACCESS_KEY,
        AZURE_SAS_TOKEN,
        AZURE_AD_CLIENT_SECRET,
        AZURE_DEVOPS_PAT,
        AZURE_DEVOPS_PAT_LEGACY,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &AZURE_STORAGE_KEY,
        "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=NQdNT1/Pd1UekXCuC7X+Zl2LmIact/BrmtiNagb4FBLz989WlPRYHHL2/+yavQbU8sn8tM/r5PkazASt6ckvrR==;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net",
    ),
    Vector::hit(
        &AZURE_STORAGE_KEY,
        "AZURE_STORAGE_KEY=SFtLYVscszBQ5/BqaDSWwDHAUb4AZKaGuG+5Irpnl8Wz7qDspbcrKalENhNGKRHTy/VgiUAhSFfKirIH06bfXt==",
        "AZURE_STORAGE_KEY=[REDACTED:azure-storage-key]",
    ),
    Vector::miss(&AZURE_STORAGE_KEY, "AccountKey=SACMhMSmEbOayrHCYODbbN60URWjJoB88tS8MJT1==;"),
    Vector::miss(&AZURE_STORAGE_KEY, "AccountKey=<storage-account-key>"),
    Vector::hit(
        &AZURE_SHARED_ACCESS_KEY,
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=IqX1tSr02ErXE67Utj5xOeJ2P98gPyYTKUM0fIYp58V=",
        "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=[REDACTED:azure-shared-access-key]",
    ),
    Vector::hit(
        &AZURE_SHARED_ACCESS_KEY,
        "HostName=hub.azure-devices.net;DeviceId=dev1;SharedAccessKey=Zemo/PjA+3XQ0G2TBU8YG08VBU3EBfSlx33nEgyBRKOi",
        "HostName=hub.azure-devices.net;DeviceId=dev1;SharedAccessKey=[REDACTED:azure-shared-access-key]",
    ),
    Vector::miss(&AZURE_SHARED_ACCESS_KEY, "SharedAccessKeyName=RootManageSharedAccessKey;"),
    Vector::miss(&AZURE_SHARED_ACCESS_KEY, "SharedAccessKey=<key>"),
    Vector::hit(
        &AZURE_SAS_TOKEN,
        "https://acme.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig=9WdxC8ScT3N4RpXN5ZeKELicEYpQNU%2BTfEKbAtyqh%3D",
        "https://acme.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig=[REDACTED:azure-sas-token]",
    ),
    Vector::hit(
        &AZURE_SAS_TOKEN,
        "BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sig=3sU5ZkZnS35i1KuOmaROR351XE3gLPi50omFoWt8%3D",
        "BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sig=[REDACTED:azure-sas-token]",
    ),
    Vector::miss(&AZURE_SAS_TOKEN, "https://example.com/page?sig=abc"),
    Vector::miss(&AZURE_SAS_TOKEN, "use the &sig= parameter of the SAS URL"),
    Vector::hit(
        &AZURE_AD_CLIENT_SECRET,
        "Created client credential Opp9Q~bT3PgeQY_vNtCtGzyUazc_2RdV6rhFv4LE (expires 2026-06-11)",
        "Created client credential [REDACTED:azure-ad-client-secret] (expires 2026-06-11)",
    ),
    Vector::hit(
        &AZURE_AD_CLIENT_SECRET,
        "{\"appId\": \"eae0df81-543c-f4d2-af02-a9bfd5ab0a7b\", \"pass\": \"CBa5Q~IprA-p3sC4RvCISR_LXrhqipbV7.AkW\"}",
        "{\"appId\": \"eae0df81-543c-f4d2-af02-a9bfd5ab0a7b\", \"pass\": \"[REDACTED:azure-ad-client-secret]\"}",
    ),
    Vector::miss(&AZURE_AD_CLIENT_SECRET, "x5ta8Q~BXyIDbnMocKwGwR0PvoZhDvNk67RhC77Pe"),
    Vector::miss(&AZURE_AD_CLIENT_SECRET, "HqL8Q~jxIeXzVnalMw22ZdoL6dC6po3o5J7ydImqq"),
    Vector::hit(
        &AZURE_DEVOPS_PAT,
        "AZURE_DEVOPS_EXT_PAT=bFuBC4kI9TJLXsDG5pnIFaZv5xfxjMLypIbjRZHx5aGs5KN8HYJqJQQJ991A38u6GSZO1Xdrt6OvAZDOp6vJ az devops project list",
        "AZURE_DEVOPS_EXT_PAT=[REDACTED:azure-devops-pat] az devops project list",
    ),
    Vector::hit(
        &AZURE_DEVOPS_PAT,
        "git -c http.extraHeader=\"X-Pat: UzcrQJ5seHmsxFCT9e2hBoMVekbycUPIHGD4XCK6MKGrCN6ii5i5vXdMGCjSEwkBcXwqGBCnK9OnAZDOi2SR\" clone https://dev.azure.com/acme/_git/app",
        "git -c http.extraHeader=\"X-Pat: [REDACTED:azure-devops-pat]\" clone https://dev.azure.com/acme/_git/app",
    ),
    Vector::miss(&AZURE_DEVOPS_PAT, "opA0BELTJBg3x0LszRLFjw8HUxr3HvqWkzJVazvay2Jkh6OiKAV4jsihPrs8bBk0Ubfp0SuvP4mAZDOyoBy"),
    Vector::miss(&AZURE_DEVOPS_PAT, "eDORATCFUTyUFvA4AVGtiyxnsNp3x7HK7PZeVGbealu9d68K1om1DnXATvFcBUWAA5B7qjgApyReAZDOAwmFD"),
    Vector::hit(
        &AZURE_DEVOPS_PAT_LEGACY,
        "AZURE_DEVOPS_EXT_PAT=lducaeq528q14uawk78fuutmuj1f84v9lqpdpt37krgx43ee6h5h",
        "AZURE_DEVOPS_EXT_PAT=[REDACTED:azure-devops-pat-legacy]",
    ),
    Vector::hit(
        &AZURE_DEVOPS_PAT_LEGACY,
        "{\"ado_pat\": \"sdtw88zesxiu0nl5cfc69nbld4zp6iwk67dam8ac5650cxu9nlui\"}",
        "{\"ado_pat\": \"[REDACTED:azure-devops-pat-legacy]\"}",
    ),
    Vector::miss(&AZURE_DEVOPS_PAT_LEGACY, "AZURE_DEVOPS_EXT_PAT=8xx9uyx1brmniu7gp238ij7rtntvw8exll19z620my3wchleovo"),
    Vector::miss(&AZURE_DEVOPS_PAT_LEGACY, "devops: VKOHUNFCRLDPQHBXBDONUCXQFZPGCQGKQBAHJAOLDNORYMSYVRQR"),
];
