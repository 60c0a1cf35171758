"""Writes a small test PKI into the folder given as the only argument, with Python's
cryptography package (a dependency of pyHanko): a root CA, an RSA-2048 signer it issued (and the
same key encrypted with the passphrase "correct horse"), an ECDSA P-256 signer issued through an
intermediate CA, an expired certificate, one not yet valid, one whose key usage does not allow
signing, and a second, unrelated key; the RSA signer also as DER files and as a PKCS #12 bundle
(key, certificate and the intermediate, AES-256, passphrase "correct horse"). Private keys are
written mode 600."""
import datetime
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID

folder = sys.argv[1]
now = datetime.datetime.now(datetime.timezone.utc)
day = datetime.timedelta(days=1)


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Folio tests")])


def write_key(file, key, passphrase=None):
    encryption = serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    path = os.path.join(folder, file)
    with open(path, "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption))
    os.chmod(path, 0o600)


def write_cert(file, cert):
    with open(os.path.join(folder, file), "wb") as out:
        out.write(cert.public_bytes(serialization.Encoding.PEM))


def certificate(subject, key, issuer, issuer_key, ca=False, start=None, end=None, usage=None):
    builder = (
        x509.CertificateBuilder()
        .subject_name(name(subject))
        .issuer_name(name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start or now - day)
        .not_valid_after(end or now + 365 * day)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if usage is None:
        usage = dict(digital_signature=not ca, content_commitment=not ca, key_cert_sign=ca, crl_sign=ca)
    flags = dict(
        digital_signature=False, content_commitment=False, key_encipherment=False, data_encipherment=False, key_agreement=False,
        key_cert_sign=False, crl_sign=False, encipher_only=False, decipher_only=False,
    )
    flags.update(usage)
    builder = builder.add_extension(x509.KeyUsage(**flags), critical=True)
    return builder.sign(issuer_key, hashes.SHA256())


root_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
root = certificate("Folio Test Root", root_key, "Folio Test Root", root_key, ca=True, end=now + 3650 * day)
write_cert("root.pem", root)

signer_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
write_key("signer.key", signer_key)
write_key("signer-encrypted.key", signer_key, "correct horse")
signer = certificate("Example Clinic", signer_key, "Folio Test Root", root_key)
write_cert("signer.pem", signer)
with open(os.path.join(folder, "signer.der"), "wb") as out:
    out.write(signer.public_bytes(serialization.Encoding.DER))
with open(os.path.join(folder, "signer-der.key"), "wb") as out:
    out.write(signer_key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
os.chmod(os.path.join(folder, "signer-der.key"), 0o600)

intermediate_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
intermediate = certificate("Folio Test Intermediate", intermediate_key, "Folio Test Root", root_key, ca=True)
write_cert("intermediate.pem", intermediate)
ec_key = ec.generate_private_key(ec.SECP256R1())
write_key("ec.key", ec_key)
write_cert("ec.pem", certificate("Example Clinic EC", ec_key, "Folio Test Intermediate", intermediate_key))
bundle_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
bundle_cert = certificate("Example Clinic Bundle", bundle_key, "Folio Test Intermediate", intermediate_key)
with open(os.path.join(folder, "bundle.p12"), "wb") as out:
    out.write(pkcs12.serialize_key_and_certificates(
        b"Example Clinic Bundle", bundle_key, bundle_cert, [intermediate], serialization.BestAvailableEncryption(b"correct horse")))
os.chmod(os.path.join(folder, "bundle.p12"), 0o600)

write_cert("expired.pem", certificate("Expired", signer_key, "Folio Test Root", root_key, start=now - 400 * day, end=now - 30 * day))
write_cert("future.pem", certificate("Future", signer_key, "Folio Test Root", root_key, start=now + 30 * day, end=now + 400 * day))
write_cert("encipher-only.pem", certificate("Encipherment", signer_key, "Folio Test Root", root_key, usage=dict(key_encipherment=True)))

other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
write_key("other.key", other_key)
