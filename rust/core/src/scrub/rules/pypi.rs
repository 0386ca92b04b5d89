//! PyPI: pypi-token.

use super::{Family, RuleDef, Vector};

pub const PYPI_TOKEN: RuleDef = RuleDef::token(
    "pypi-token",
    "PyPI / TestPyPI upload token (pypi-AgE… macaroon)",
    &["pypi-AgE"],
    r"pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}",
    1024,
)
.right_guard("")
.overflow("[A-Za-z0-9_-]");

/// The family, its rules in priority order.
pub const FAMILY: Family = Family {
    name: "PyPI",
    source: "GL, TH, NP, DS, MS",
    rules: &[PYPI_TOKEN],
    vectors: VECTORS,
};

const VECTORS: &[Vector] = &[
    Vector::hit(
        &PYPI_TOKEN,
        "$ twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcfI3PjKW76KiCI2lUM4O0mhZWBWFl74Hp5EblmRTayMbEYbVdYFhFWGCrO2LSWbMmPJ4rmFb5LM9nf2yiLMXXoJu3yptl34kiUd0Y7TJYBxYHHgg52kjwKQ8ong_Z1oWC4PM3z6EO-mZiyapJdwCMMY dist/*",
        "$ twine upload -u __token__ -p [REDACTED:pypi-token] dist/*",
    ),
    Vector::hit(
        &PYPI_TOKEN,
        "[testpypi]\n  username = __token__\n  pass = pypi-AgENdGVzdC5weXBpLm9yZw1s-fOj2eWecmdBBeUZ82s3fnTx4Px1aUWo5Jx7jnPzEMvR_wQP8KrEIZa8KAP5jrnqj26bDcMQCMKCU8HWGvALBDhC8BvcydTaDoLp-K8QqK8dbT4x-Knj5Q\n",
        "[testpypi]\n  username = __token__\n  pass = [REDACTED:pypi-token]\n",
    ),
    Vector::miss(&PYPI_TOKEN, "pip install requests==2.32.3 --hash=sha256:db57a6a78086dcf13b9fbf1a71ea60e6400a803c5785764077a2de97ac5c6142"),
    Vector::miss(&PYPI_TOKEN, "pypi-AgEIcHlwaS5vcmcXzsnvwaJzGr87KVS-ZaX94uG-vA6kGk2MQb2Twqa"),
];
