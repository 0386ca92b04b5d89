//! AWS: aws-access-key-id, aws-secret-access-key, aws-session-token, aws-bedrock-api-key.

use super::{Family, RuleDef, Vector};

pub const AWS_ACCESS_KEY_ID: RuleDef = RuleDef::token(
    "aws-access-key-id",
    "AWS access key ID (AKIA/ASIA/ABIA/ACCA/A3T…, 20 chars)",
    &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
    20,
);

pub const AWS_SECRET_ACCESS_KEY: RuleDef = RuleDef::context(
    "aws-secret-access-key",
    "AWS secret access key (40 chars) after aws_secret_access_key / SecretAccessKey",
    &["secret_access_key", "secret-access-key", "secretaccesskey", "aws_secret_key"],
    r#"(?i:secret[_-]?access[_-]?key|aws_secret_key)(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9/+=]{40})"#,
    127,
)
.right_guard("[A-Za-z0-9/+=]");

pub const AWS_SESSION_TOKEN: RuleDef = RuleDef::context(
    "aws-session-token",
    "AWS session token after aws_session_token / SessionToken / X-Amz-Security-Token",
    &["aws_session_token", "sessiontoken", "x-amz-security-token"],
    r#"(?i:aws_session_token|sessiontoken|x-amz-security-token)(?:\\?["'])?[ \t]{0,32}(?::=|=>|[:=])[ \t]{0,32}(?:\\?["'])?(?P<secret>[A-Za-z0-9/+=]{16,})"#,
    4096,
)
.overflow("[A-Za-z0-9/+=]");

pub const AWS_BEDROCK_API_KEY: RuleDef = RuleDef::token(
    "aws-bedrock-api-key",
    "Amazon Bedrock API key: long-lived ABSK… or short-lived bedrock-api-key-…",
    &["ABSK", "bedrock-api-key-"],
    r"ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/]*={0,2}",
    4096,
)
.right_guard("[A-Za-z0-9+/=]")
.overflow("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "AWS",
    source: "GL, DS, NP",
    rules: &[
        AWS_ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY,
        AWS_SESSION_TOKEN,
        AWS_BEDROCK_API_KEY,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &AWS_ACCESS_KEY_ID,
        "export AWS_ACCESS_KEY_ID=AKIAL6O7XOD53ERXOLQB",
        "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]",
    ),
    Vector::hit(
        &AWS_ACCESS_KEY_ID,
        "{\"Credentials\": {\"AccessKeyId\": \"ASIAY64CBTXHZ5644U4M\", \"Expiration\": \"2025-01-01T00:00:00Z\"}}",
        "{\"Credentials\": {\"AccessKeyId\": \"[REDACTED:aws-access-key-id]\", \"Expiration\": \"2025-01-01T00:00:00Z\"}}",
    ),
    Vector::miss(&AWS_ACCESS_KEY_ID, "AKIA2ZE4VLOUYOHI6SZ is one character short"),
    Vector::miss(&AWS_ACCESS_KEY_ID, "id=XAKIAX2QQZOVUM5OTDIDH glued to a word"),
    Vector::miss(&AWS_ACCESS_KEY_ID, "akiagopbfjxvkpnnuwue lowercase"),
    Vector::hit(&AWS_ACCESS_KEY_ID, "key AKIAD8JIUFWZ9X0WLDN1 has 0, 1, 8, 9", "key [REDACTED:aws-access-key-id] has 0, 1, 8, 9"),
    Vector::miss(&AWS_ACCESS_KEY_ID, "AKIAIOSFODNN7EXAMPLE is the documented example"),
    Vector::hit(
        &AWS_SECRET_ACCESS_KEY,
        "[default]\naws_access_key_id = AKIA...\naws_secret_access_key = 9U9xIec6sxXlXQlNW3MUSxPbWlckk4e5Qqi5Baxl\n",
        "[default]\naws_access_key_id = AKIA...\naws_secret_access_key = [REDACTED:aws-secret-access-key]\n",
    ),
    Vector::hit(
        &AWS_SECRET_ACCESS_KEY,
        "{\"AccessKeyId\": \"(elided)\", \"SecretAccessKey\": \"nZWihn27fMIrma8ALUyUcJrzNaD3QtLtFePLnQcW\"}",
        "{\"AccessKeyId\": \"(elided)\", \"SecretAccessKey\": \"[REDACTED:aws-secret-access-key]\"}",
    ),
    Vector::hit(
        &AWS_SECRET_ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY=r7NTFzIBc1xlos9feAvas8Il3EytGuvoIiF+jzTP aws s3 ls",
        "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key] aws s3 ls",
    ),
    Vector::miss(&AWS_SECRET_ACCESS_KEY, "commit 80e6cac66581202fd4c53fd42dec5ad6bdefb1af\nAuthor: dev <dev@example.com>"),
    Vector::miss(&AWS_SECRET_ACCESS_KEY, "aws_secret_access_key     ****************CYAP shared-credentials-file"),
    Vector::hit(
        &AWS_SESSION_TOKEN,
        "aws_session_token = IQoJb3JpZ2luX2VjSpBzd5zu7IHN0G6WLir7gHBBhuHNQC+RPlRVRWWBnJuRDLmKU8IlwuwrbqQRzTD101qE/pK2M9n0uSHDFbcPOeqduzBCXjvDwjloz/FgtT/e6a5pM0araz88Ik7XjIMASzZf2DuoI8Yopb4j7UmvxxcHoplaicxN5o5epHPrLsMdiH5Q9IQ31NEx3gcJ4NJPb5H8rZl8apXwhgvfTtzfOxafDNv+W5wp5IsdkQ7nlF4xTGLfDogQq9BINDd8mwjfSJc5VNYEFV9GWl6ouhhSIJ3DddF/Gu/fSSUghzoCLC2n==\n",
        "aws_session_token = [REDACTED:aws-session-token]\n",
    ),
    Vector::hit(
        &AWS_SESSION_TOKEN,
        "{\"Credentials\": {\"SessionToken\": \"FwoGZXIvYXdzEfREKcbvhFNVuQsoXB6b18HWhgFiBuTm5BsretxaCtBj2fbvxeTPaeypA9+NtaNA21uU41l0sfKO/OwsCh5/6ubErv2p6StOsTnPIhInxcYL0yshYTn7lMFQOPWBhSIKq4FCIDba1wRA7AzXCNM5TkAX2UpEDFbjAseeRlklWqZ8JpsxsMW5g\"}}",
        "{\"Credentials\": {\"SessionToken\": \"[REDACTED:aws-session-token]\"}}",
    ),
    Vector::miss(&AWS_SESSION_TOKEN, "aws_session_token = None"),
    Vector::miss(&AWS_SESSION_TOKEN, "Set aws_session_token when using temporary credentials."),
    Vector::hit(
        &AWS_BEDROCK_API_KEY,
        "AWS_BEARER_TOKEN_BEDROCK=ABSKfKUNdLw+9fZlH/j4DseUWTAolp3OvGZpseAa9LgkmcinCrPqejuYCd8NBt+2dml8fU9sRCPTipT0tbebVuIZqo560YNJ/W/k0ejaSTH3qUi+9oyX516wDVmZbIrMxF16Axc8=",
        "AWS_BEARER_TOKEN_BEDROCK=[REDACTED:aws-bedrock-api-key]",
    ),
    Vector::hit(
        &AWS_BEDROCK_API_KEY,
        "{\"headers\": {\"X-Api-Bearer\": \"bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29tKJzrjHKtSTTWS8Rei1TQD8embgiQtkY4OZUu0m7agvlrEwZSMhCmTUz5mvIBMCpbYXKmTOZvP/DankpXkFUuDMiMz0NTN6vnQy9O/necrxJsVy+/TDsdqM27wWgTK5N4mS8IBisoHTHIN1Gx24sfQmo+I34oBAHbyRb9QkDarfyPtnrT+Q51TrJNRezLoxgvJzSHD+OtWadi+ClqOfnf+FYJdMw71CKxNPWMpXFIbx/o0o948RSG9wb1c7bQhNWVmWFYbrI8EXa8/yHs+I9VE/b0YU3kVWaWwSHS+2L2MD5vf0BCGfztEs3oNqnEMP4lpiAYMpyBWIsTk4Lwr63Yh3pJ7zXvjInby2UpzEo1spE3buJ2ssg8coEuCyJjOsXPv7mZ2i0yQc+puu+5==\"}}",
        "{\"headers\": {\"X-Api-Bearer\": \"[REDACTED:aws-bedrock-api-key]\"}}",
    ),
    Vector::miss(&AWS_BEDROCK_API_KEY, "ABSKgrG31FgVJ9iLZgPtCrjauGgP+WDyp4Us3KYI9aYuZv9/9gaUpuzvh14JgemA is too short for a Bedrock key"),
    Vector::miss(&AWS_BEDROCK_API_KEY, "see bedrock-api-key-generator in the docs"),
];
