"""Redaction quality: catch rate per category and how often a text with no secret changes.

    .venv/bin/python benches/redaction_eval.py [--misses]

Every example is written here from the providers' documented formats, with random values
from a seeded generator (none is taken from another project's tests). A positive example
is caught when no byte run of its secret survives scrubbing (the secret's text is absent
from the output); a no-secret example must come out unchanged. Each run also checks that
scrubbing the texts in 7-character chunks gives the same output as scrubbing them whole.
"""

from __future__ import annotations

import base64
import random
import string
import sys

from scrubline import Scrubber, scrub

rng = random.Random(20261201)
UP, LO, DI = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DI
HEX = "0123456789abcdef"
B64 = AN + "+/"
URL = AN + "_-"


def r(alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def pw() -> str:
    return r(LO, 4) + r(DI, 2) + rng.choice("!#%") + r(UP, 3) + r(LO, 2)


# Each positive example: (category, text, secret).
POS: list[tuple[str, str, str]] = []


def tok(template: str, secret: str) -> None:
    POS.append(("tokens", template.format(s=secret), secret))


def kv(template: str, secret: str) -> None:
    POS.append(("keyword=value", template.format(s=secret), secret))


def conn(template: str, secret: str) -> None:
    POS.append(("conn/keys/hashes", template.format(s=secret), secret))


# ---- provider tokens ------------------------------------------------------------------
for n in (36, 40, 60, 120, 255):
    tok("git remote set-url origin https://{s}@github.com/o/r.git", "ghp_" + r(AN, n))
tok("GH_TOKEN={s}", "gho_" + r(AN, 36))
tok("token: {s}", "github_pat_" + r(AN, 22) + "_" + r(AN, 59))
tok("aws_access_key_id = {s}", "AKIA" + r(UP + DI, 16))
tok('"AccessKeyId": "{s}"', "ASIA" + r(UP + DI, 16))
tok("key {s} rotated", "AKIA" + r("0189" + UP, 16))
tok("NEW_RELIC_API_KEY={s}", "NRAK-" + r(UP + DI, 27))
tok("insights insert key {s}", "NRII-" + r(URL, 32))
tok("query key: {s}", "NRIQ-" + r(URL, 32))
tok("license_key: {s}", r(HEX, 36) + "NRAL")
tok(
    "DISCORD_TOKEN={s}",
    rng.choice("MNO") + r(URL, 25) + "." + r(URL, 6) + "." + r(URL, 38),
)
tok("bot = telebot.TeleBot('{s}')", r(DI, 10) + ":AA" + r(URL, 33))
tok(
    "curl -X POST {s}",
    f"https://acme.webhook.office.com/webhookb2/{r(HEX, 8)}-{r(HEX, 4)}-{r(HEX, 4)}-{r(HEX, 4)}-"
    f"{r(HEX, 12)}@{r(HEX, 8)}-{r(HEX, 4)}-{r(HEX, 4)}-{r(HEX, 4)}-{r(HEX, 12)}/IncomingWebhook/"
    f"{r(HEX, 32)}/{r(HEX, 8)}-{r(HEX, 4)}-{r(HEX, 4)}-{r(HEX, 4)}-{r(HEX, 12)}",
)
tok(
    "flow url {s}",
    f"https://prod-12.westus.logic.azure.com:443/workflows/{r(HEX, 32)}/triggers/manual/paths/"
    f"invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={r(URL, 43)}",
)
tok("AIRTABLE_TOKEN={s}", "pat" + r(AN, 14) + "." + r(HEX, 64))
tok("airtable oauth {s}", "oaa" + r(AN, 14) + "." + r(URL, 50))
tok("SRC_ACCESS_TOKEN={s}", "sgp_" + r(HEX, 16) + "_" + r(HEX, 40))
tok("twitch oauth:{s}", "oauth:" + r(LO + DI, 30))
tok("Authorization: SSWS {s}", "00" + r(URL, 40))
tok("sid={s}", "00D" + r(AN, 12) + "!" + r(AN + ".", 96))
tok("SHIPPO_API_TOKEN={s}", "shippo_live_" + r(HEX, 40))
tok("duffel key {s}", "duffel_test_" + r(URL, 43))
tok("PLANETSCALE={s}", "pscale_tkn_" + r(URL, 43))
tok("TAVILY_API_KEY={s}", "tvly-" + r(AN, 32))
tok("JINA_API_KEY={s}", "jina_" + r(HEX, 32) + r(URL, 28))
tok(
    "op secret key {s}",
    "A3-" + r(UP + DI, 6) + "-" + r(UP + DI, 6) + "-" + "-".join(r(UP + DI, 5) for _ in range(3)),
)
tok("DT_API_TOKEN={s}", "dt0c01." + r(UP + DI, 24) + "." + r(UP + DI, 64))
tok("APIFY_TOKEN={s}", "apify_api_" + r(AN, 36))
tok("rootly {s}", "rootly_" + r(HEX, 64))
tok(
    "Authorization: Bearer {s}",
    base64.urlsafe_b64encode(b'{"typ":"JWT",\r\n "alg":"HS256"}').decode().rstrip("=")
    + "."
    + base64.urlsafe_b64encode(b'{"sub":"1234567890","iat":1516239022}').decode().rstrip("=")
    + "."
    + r(URL, 43),
)
tok("SLACK_USER_TOKEN={s}", "xoxp-" + "-".join(r(DI, 12) for _ in range(3)) + "-" + r(HEX, 32))
tok("slack refresh {s}", "xoxe-1-" + r(AN, 146))
tok("slack {s}", "xoxp-" + r(DI, 11) + "-" + r(DI, 13) + "-" + r(DI, 13) + "-" + r(HEX, 64))
tok("STRIPE={s}", "sk_live_" + r(AN, 99))
tok("OPENAI_API_KEY={s}", "sk-proj-" + r(URL, 74) + "T3BlbkFJ" + r(URL, 74))
tok("ANTHROPIC_API_KEY={s}", "sk-ant-api03-" + r(URL, 93) + "AA")
tok("GOOGLE_API_KEY={s}", "AIza" + r(URL, 35))
tok("glpat {s}", "glpat-" + r(URL, 20))
tok("SENDGRID={s}", "SG." + r(URL, 22) + "." + r(URL, 43))
tok("npm token {s}", "npm_" + r(AN, 36))
tok("HF_TOKEN={s}", "hf_" + r(LO + UP, 34))
tok("linear {s}", "lin_api_" + r(AN, 40))
tok("SQUARE={s}", "sq0csp-" + r(URL, 43))
tok("mapbox {s}", "sk.eyJ1Ijoi" + r(AN, 50) + "." + r(URL, 22))
tok("contentful {s}", "CFPAT-" + r(URL, 43))
tok("ADAFRUIT_IO_KEY={s}", "aio_" + r(AN, 28))
tok("age {s}", "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58))
tok("figma {s}", "figd_" + r(URL, 40))
tok("FRAMEIO={s}", "fio-u-" + r(URL, 64))
tok("PREFECT_API_KEY={s}", "pnu_" + r(AN, 36))
tok("readme key {s}", "rdme_" + r(LO + DI, 70))
tok("SCALEWAY={s}", "SCW" + r(UP + DI, 17))
tok("BEAMER={s}", "b_" + r(URL, 44))
tok("HARNESS={s}", "pat." + r(URL, 22) + "." + r(AN, 24) + "." + r(AN, 20))
tok("INFRACOST={s}", "ico-" + r(AN, 32))
tok("Authorization: token {s}", "glsa_" + r(AN, 32) + "_" + r(HEX, 8))

# ---- keyword = value ------------------------------------------------------------------
for tmpl in (
    'System.setProperty("DB_TOKEN", "{s}");',
    "PASSWORD ::= {s}",
    "PASSWORD :::= {s}",
    "API_TOKEN ?= {s}",
    'var dbPassword string = "{s}"',
    "secretKey := `{s}`",
    '$password .= "{s}";',
    "<authToken>\n  {s}\n</authToken>",
    "password: {s}",
    'password = "{s}"',
    "[db]\npassword={s}",
    '{{"password": "{s}"}}',
    "DB_PASSWORD={s}",
    'password = "{s}" # hcl',
    "export API_SECRET={s}",
    "mysql -u root -p{s} app",
    "psql --password={s}",
    "curl -u admin:{s} https://h/",
    'new NetworkCredential("admin", "{s}")',
    "password '{s}'",
    "the password is '{s}'",
    "client_secret: {s}",
    "api_key={s}",
    "$env:API_KEY = '{s}'",
    "set PASSWORD={s}",
    "ENV DB_PASS={s}",
    "'password' => '{s}',",
    "passwd: {s}",
    "secret_token = '{s}'",
    '<add key="Password" value="{s}" />',
    'private static final String PASSWORD = "{s}";',
    "auth_token: '{s}'",
    "-e POSTGRES_PASSWORD={s}",
    "redis-cli -a {s} ping",
    "SMTP_PASS={s}",
    '"pass": "{s}"',
):
    kv(tmpl, pw())

# ---- connection strings, private keys, password hashes --------------------------------
for scheme in ("postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "rediss"):
    conn(scheme + "://app:{s}@db.internal:5432/app", pw())
conn("jdbc:postgresql://db:5432/app?user=app&password={s}", pw())
conn("jdbc:mysql://app:{s}@db:3306/app", pw())
conn("Server=db;Database=app;User Id=sa;Password={s};", pw())
conn("Driver={{PostgreSQL}};Server=db;Uid=app;Pwd={s};", pw())
conn("machine api.example.com login bot password {s}", pw())
conn("machine h\n  login u\n  password {s}\n", pw())
for kind in ("RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED ", "", "PGP "):
    label = f"{kind}PRIVATE KEY" if kind != "PGP " else "PGP PRIVATE KEY BLOCK"
    body = "\n".join(r(B64, 64) for _ in range(4))
    pem = f"-----BEGIN {label}-----\n{body}\n-----END {label}-----"
    conn("{s}\n", pem)
pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(r(B64, 64) for _ in range(4))
pem += "\n-----END RSA PRIVATE KEY-----\n"
conn("KEY_B64={s}", base64.b64encode(pem.encode()).decode())
conn('{{"private_key": "{s}"}}', pem.replace("\n", "\\n"))
conn(
    "{s}",
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: k\nPublic-Lines: 2\n"
    + r(B64, 64)
    + "\n"
    + r(B64, 20)
    + "\nPrivate-Lines: 1\n"
    + r(B64, 44)
    + "\nPrivate-MAC: "
    + r(HEX, 64),
)
for prefix in ("$2a$10$", "$2b$12$", "$2y$10$"):
    conn("admin:{s}", prefix + r(AN + "./", 53))
conn("root:{s}:19000:0:99999:7:::", "$6$" + r(AN, 16) + "$" + r(AN + "./", 86))
kv('os.environ["API_KEY"] = "{s}"', pw())
kv("ENV['DB_PASSWORD'] = '{s}'", pw())
kv("client_secret: {s}", r(LO, 4) + "#" + r(DI, 3) + r(AN, 6))
kv("vercel deploy --token {s} --prod", r(AN, 8) + r(DI, 2) + r(AN, 14))
kv('tool --api-key "{s}" run', r(AN, 10) + r(DI, 2))
conn("machine gitserver\nlogin ci\npassword {s}\n", pw())
conn(
    'String key = "-----BEGIN PRIVATE KEY-----\\n" +\n  "{s}\\n" +\n  "-----END PRIVATE KEY-----";',
    "MIIEv" + r(B64, 59),
)
conn("user:{s}", "$5$rounds=5000$" + r(AN, 16) + "$" + r(AN + "./", 43))
conn("hash {s}", "$krb5tgs$23$*svc$CORP.LOCAL$http/web*$" + r(HEX, 32) + "$" + r(HEX, 300))
conn("hash {s}", "$krb5asrep$23$user@CORP.LOCAL:" + r(HEX, 32) + "$" + r(HEX, 200))
conn("admin:{s}", "$apr1$" + r(AN, 8) + "$" + r(AN + "./", 22))
conn("web:{s}", "{SHA}" + base64.b64encode(bytes(rng.randrange(256) for _ in range(20))).decode())

# ---- no secret ------------------------------------------------------------------------
NEG = [
    'token: "#/components/schemas/Token"',
    "headers['token'] = token",
    'if d["password"] == "abc123!":',
    'x = config["password"]',
    "  --token TOKEN       the API token to use",
    "gh auth login --token <token>",
    "docker login -u ci --password-stdin < token.txt",
    "permissions: repo:token:write-all9",
    "Write-Host $env:API_KEY",
    "a machine learning login page asks for a password first",
    "password=xxxxxxxx",
    "password = XXXXXXXXXXXX",
    "token: ************",
    "api_key=00000000000000000000",
    "secret=1111111111111111",
    "API_KEY=aaaaaaaaaaaaaaaaaaaa",
    "postgres://<user:password>@localhost/db",
    "password: [PASSWORD]",
    "password=${DB_PASSWORD}",
    "TOKEN=$(vault read -field=token secret/x)",
    "password='$OTHER_VAR'",
    'document.querySelector("#add-password").click()',
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db/password-AbCdEf",
    "password: &lt;your-password&gt;",
    'apiKey: "a-fake-api-key"',
    'passwordLabel:"Password:",rememberMeLabel:"Remember me"',
    "token=spu-1234",
    'password = "123"',
    "self.password = password",
    "def set_password(self, password: str) -> None:",
    "password_hash = bcrypt.hashpw(password, salt)",
    "if token is None: raise ValueError('token required')",
    "Enter your password:",
    "token = get_token()",
    "See the docs for how to rotate your API key.",
    "git commit -m 'fix token refresh'",
    "sha256:" + "ab" * 32,
    "commit " + "a1" * 20,
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "const tokenizer = new Tokenizer(vocab);",
    "password: str = Field(..., min_length=8)",
    'password: "{{ .Values.password }}"',
    "password: {{ vault_db_password }}",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "mysql://user:password@localhost/db",
    "redis://localhost:6379/0",
    "https://example.com/path?next=/login",
    "Password must be at least 8 characters long.",
    "token_type: bearer",
    "secret_name: prod/db",
    "export PATH=$HOME/.local/bin:$PATH",
    "password-reset-form",
    "passwordField.setText('');",
    "user.password = hash(password)",
    "'password' => env('DB_PASSWORD'),",
    "password: process.env.DB_PASSWORD,",
    "--password-stdin",
    "TOKEN_URL=https://oauth2.googleapis.com/token",
    "eyJhbGciOiJIUzI1NiJ9 is only a header",
    "-----BEGIN PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----",
    "the $2b$ prefix marks bcrypt",
    "Bearer token auth is described in RFC 6750",
    "machine learning login flow password reset",
    "key = os.environ['API_KEY']",
    "private_key_path = ~/.ssh/id_rsa",
    "password=changeme",
    "<password>${env.DB_PASS}</password>",
    "password: !vault |",
    "client_secret=<client-secret>",
    'const passwordInput = document.getElementById("password");',
    'passwordLabel:"Password:"+new Buffer(x)',
    "Password: ********",
    "token: REDACTED",
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-password",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host",
]


def main() -> int:
    show = "--misses" in sys.argv
    cats: dict[str, list[int]] = {}
    split_mismatch = 0
    for cat, text, secret in POS:
        out = scrub(text)
        caught = secret not in out
        cats.setdefault(cat, [0, 0])
        cats[cat][0] += caught
        cats[cat][1] += 1
        if not caught and show:
            print(f"MISS {cat}: {text[:110]!r}")
        s = Scrubber()
        streamed = "".join(s.feed(text[i : i + 7]) for i in range(0, len(text), 7)) + s.flush()
        split_mismatch += streamed != out
    changed = 0
    for text in NEG:
        out = scrub(text)
        if out != text:
            changed += 1
            if show:
                print(f"CHANGED: {text!r} -> {out!r}")
    for cat, (hit, n) in cats.items():
        print(f"{cat:18} caught {hit:3}/{n:3} = {100 * hit / n:5.1f}%")
    print(f"{'no-secret':18} changed {changed:2}/{len(NEG):3} = {100 * changed / len(NEG):5.1f}%")
    print(f"split mismatches (7-char chunks): {split_mismatch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
