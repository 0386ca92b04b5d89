//! Password hashes that can be cracked offline: bcrypt, crypt(3) ($1$, $5$, $6$, $apr1$,
//! $y$), Argon2, Kerberos tickets and pre-auth data as hashcat prints them, htpasswd
//! {SHA}/{SSHA}, Django PBKDF2. The whole hash is redacted: its salt and digest are what a
//! cracker needs.

use super::{Family, RuleDef, Vector};

/// The crypt(3) base64 alphabet.
const CRYPT: &str = "[./A-Za-z0-9]";

pub const BCRYPT_HASH: RuleDef = RuleDef::token(
    "bcrypt-hash",
    "bcrypt hash ($2a$/$2b$/$2x$/$2y$, cost, 53 chars of salt and digest)",
    &["$2a$", "$2b$", "$2x$", "$2y$"],
    r"\$2[abxy]\$[0-9]{2}\$[./A-Za-z0-9]{53}",
    60,
)
.left_guard("")
.right_guard(CRYPT);

pub const SHA_CRYPT_HASH: RuleDef = RuleDef::token(
    "sha-crypt-hash",
    "crypt(3) hash: sha512crypt $6$, sha256crypt $5$, md5crypt $1$ / $apr1$, yescrypt $y$",
    &["$6$", "$5$", "$1$", "$apr1$", "$y$"],
    r"\$[56]\$(?:rounds=[0-9]{1,9}\$)?[./A-Za-z0-9]{1,16}\$(?:[./A-Za-z0-9]{86}|[./A-Za-z0-9]{43})|\$(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}|\$y\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{1,86}\$[./A-Za-z0-9]{43}",
    200,
)
.left_guard("")
.right_guard(CRYPT);

pub const ARGON2_HASH: RuleDef = RuleDef::token(
    "argon2-hash",
    "Argon2 hash in PHC form ($argon2id$v=19$m=…,t=…,p=…$salt$digest)",
    &["$argon2"],
    r"\$argon2(?:id|i|d)\$v=[0-9]{1,3}\$m=[0-9]{1,10},t=[0-9]{1,5},p=[0-9]{1,4}\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{16,128}",
    300,
)
.left_guard("")
.right_guard("[A-Za-z0-9+/]");

pub const KERBEROS_HASH: RuleDef = RuleDef::token(
    "kerberos-hash",
    "Kerberos TGS / AS-REP / pre-auth hash as cracking tools print it ($krb5tgs$, $krb5asrep$, $krb5pa$)",
    &["$krb5"],
    r"\$krb5(?:tgs|asrep|pa|tgt)\$[0-9]{1,2}\$[^\s$]{0,300}(?:\$[^\s$]{0,300}){0,4}\$[0-9a-fA-F]{32,}",
    16384,
)
.left_guard("")
.right_guard("")
.overflow("[0-9a-fA-F]");

pub const HTPASSWD_SHA: RuleDef = RuleDef::token(
    "htpasswd-sha",
    "htpasswd / LDAP {SHA} and {SSHA} password hash",
    &["{SHA}", "{SSHA}"],
    r"\{SHA\}[A-Za-z0-9+/]{27}=|\{SSHA\}[A-Za-z0-9+/]{30,}={0,2}",
    128,
)
.left_guard("")
.right_guard("[A-Za-z0-9+/=]");

pub const DJANGO_PBKDF2_HASH: RuleDef = RuleDef::token(
    "django-pbkdf2-hash",
    "Django PBKDF2 password hash (pbkdf2_sha256$iterations$salt$digest)",
    &["pbkdf2_sha"],
    r"pbkdf2_sha(?:1|256|512)\$[0-9]{4,8}\$[A-Za-z0-9./+]{6,64}\$[A-Za-z0-9+/]{27,88}={0,2}",
    200,
)
.right_guard("[A-Za-z0-9+/=]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "Password hashes",
    source: "crypt(5) and the PHC string format; hashcat example hashes (modes 3200, 1800, 7400, 500, 1600, 13100, 18200, 7500, 101, 111, 10000)",
    rules: &[
        BCRYPT_HASH,
        SHA_CRYPT_HASH,
        ARGON2_HASH,
        KERBEROS_HASH,
        HTPASSWD_SHA,
        DJANGO_PBKDF2_HASH,
    ],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &BCRYPT_HASH,
        "admin:$2b$12$GPzEyoL8EsaJd/wyXxQPplH8ACyjkz4jmBQlm7knI4pShZFC8ZrXb",
        "admin:[REDACTED:bcrypt-hash]",
    ),
    Vector::hit(
        &BCRYPT_HASH,
        "{\"password_hash\": \"$2y$10$eg/fT3pG.h8msMlc.T1ah9sdbEl7oX8nrEHAluvtdgDW1.In81LJK\"}",
        "{\"password_hash\": \"[REDACTED:bcrypt-hash]\"}",
    ),
    Vector::hit(
        &BCRYPT_HASH,
        "UPDATE users SET pw='$2a$08$6yc.jecsblnAk2vnXK6.Zy2GKlPOyJV9YZGWNkJnsrUgBhcpqIuRh' WHERE id=1;",
        "UPDATE users SET pw='[REDACTED:bcrypt-hash]' WHERE id=1;",
    ),
    Vector::miss(&BCRYPT_HASH, "the $2b$ prefix marks bcrypt; cost $2b$12$ is the default"),
    Vector::hit(
        &SHA_CRYPT_HASH,
        "root:$6$RHUNL9yf4StfxDPN$ag5t/Zj3aoeWqeHGwlifXjw9APP8Dy.3XzZmBNQR2yTBGTCuSsH5LM/Em9iJLwbL132Zn4T8.WvXX2HdNK44cj:19000:0:99999:7:::",
        "root:[REDACTED:sha-crypt-hash]:19000:0:99999:7:::",
    ),
    Vector::hit(
        &SHA_CRYPT_HASH,
        "user:$5$rounds=5000$yv6xQrM3hwwjhCS6$svg/LRTlGrwQ2d8m3Dze9n2cldhT.7JZjyUDevwBJSM",
        "user:[REDACTED:sha-crypt-hash]",
    ),
    Vector::hit(
        &SHA_CRYPT_HASH,
        "www:$1$dVIIfHmx$59Fo95X07mVvp/DKOHQ9UO",
        "www:[REDACTED:sha-crypt-hash]",
    ),
    Vector::hit(
        &SHA_CRYPT_HASH,
        "admin:$apr1$o5Zbcb99$Fd2lA2D.FNQEoQ./xZ90tx",
        "admin:[REDACTED:sha-crypt-hash]",
    ),
    Vector::hit(
        &SHA_CRYPT_HASH,
        "dev:$y$j9T$degvcU.G7lJ2m7erV7xnuI$LoVGbuLI4C0GRwa9xed3XBYqpNnRNB7FIYnqdodrN1o:19500::::::",
        "dev:[REDACTED:sha-crypt-hash]:19500::::::",
    ),
    Vector::miss(&SHA_CRYPT_HASH, "price: $6$ per seat, $5$ for students"),
    Vector::hit(
        &ARGON2_HASH,
        "hash = $argon2id$v=19$m=65536,t=3,p=4$5JqEt/lRC3ZWYdzAeAY2om$tTtvM5riija1IYLsD6c060ZGUfpDNhmMLm43B3OjdK2",
        "hash = [REDACTED:argon2-hash]",
    ),
    Vector::miss(&ARGON2_HASH, "use $argon2id$ with m=65536"),
    Vector::hit(
        &KERBEROS_HASH,
        "$krb5tgs$23$*svc_sql$CORP.LOCAL$MSSQLSvc/db.corp:1433*$a99098b260ff3ac1c97570cf1dcb9210$7c907cbeac0ddd60132f96aa87e5a4bb15d4dcc513d4654c340b67c01ffff3195f80135f3b92c07423fb388dfa93ee3419300aed2e779eda314554f625b65a91d1cbb5371bd6a2ba11015b11f5c9538f28f41ec36f2e5fa8b4ecfe5dc94fa78e5fa039c77d2f50540a7edca5b4eec0a0f98b7fd216d63d17418e52d2d058b3abc4aa0df28d2993a370361fd9eec39ea79497344d3bcf7d49a2a09115e67425209ada870573ca7570574185c68b3e9239e086bc8dd100f0e0134f156f051968cee13242aa2402605e\n",
        "[REDACTED:kerberos-hash]\n",
    ),
    Vector::hit(
        &KERBEROS_HASH,
        "[+] $krb5asrep$23$jdoe@CORP.LOCAL:88eb1312427c89aedc8c08e026d8b2ba$8ad5e3b4edb0c811cc109398b89b50333b50bb84c349bcaf30428b891e753e4ee2a384f00b9fd149846d5257d7653acaafa9d88cd671b98f50044af8603f5c1dc860e7527da285bdc443ccb28d23a02357eca511228bd9e1785d599875c7b2e1336614eba23a9461d28156e9c85e593b4f9a9cc3b953aa71",
        "[+] [REDACTED:kerberos-hash]",
    ),
    Vector::hit(
        &KERBEROS_HASH,
        "$krb5pa$18$jdoe$CORP.LOCAL$b3830a13fcf93e3e3f13c90335515c5d368d565a03f0ab4e9df161652e9639911b08fd8fc2244218bcf1986187d25fef061b71ca",
        "[REDACTED:kerberos-hash]",
    ),
    Vector::miss(&KERBEROS_HASH, "hashcat mode 13100 is $krb5tgs$23$"),
    Vector::hit(
        &HTPASSWD_SHA,
        "web:{SHA}4Ippctl8GFCddW6ESGW6ewPC8DM=",
        "web:[REDACTED:htpasswd-sha]",
    ),
    Vector::hit(
        &HTPASSWD_SHA,
        "olduser:{SSHA}qRe2ax4/efJRUeWKS/qRZIAdt5WPynK1\n",
        "olduser:[REDACTED:htpasswd-sha]\n",
    ),
    Vector::miss(&HTPASSWD_SHA, "{SHA} and {SSHA} are LDAP schemes"),
    Vector::hit(
        &DJANGO_PBKDF2_HASH,
        "password = 'pbkdf2_sha256$600000$p2mkUIKcUaLXs6RFVwkPC7$vYUWCChCXDNifI3l+lCwn9+t7faaRz5nC8/V+YvKve8='",
        "password = '[REDACTED:django-pbkdf2-hash]'",
    ),
    Vector::miss(&DJANGO_PBKDF2_HASH, "PASSWORD_HASHERS = ['django.contrib.auth.hashers.PBKDF2PasswordHasher']"),
];
