// Principals as Kafka's DefaultKafkaPrincipalBuilder makes them: the SASL
// name, else the client certificate's subject as Java's
// X500Principal.getName() (RFC 2253) prints it, else User:ANONYMOUS. The
// certificates were made with openssl req -subj; each expected subject is
// what Java 17's X500Principal.getName() printed for it.
import { X509Certificate } from 'node:crypto';
import { ANONYMOUS, hostAddress, principalOf, rfc2253Subject } from '../../src/server/principal.js';

const CERTS: [string, string][] = [
  [
    `-----BEGIN CERTIFICATE-----
MIIBjTCCATOgAwIBAgIUYyzXmF5lN4bjC64BmfvwJJ0HoyUwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRa2Fma2Flc3F1ZS1jbGllbnQwHhcNMjYxMjAyMDczMDMxWhcN
MzYxMTI5MDczMDMxWjAcMRowGAYDVQQDDBFrYWZrYWVzcXVlLWNsaWVudDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABAQEnfGu5cWnCEMc9uR4SP+/YOnbXjqzH4+e
/FIOLOaJHkP1p6ysGLgidbP9EbRF6QZr8/+ZaDzBMzngunmsz3ijUzBRMB0GA1Ud
DgQWBBQAJD+Q8mARTDTJa0/QqE7idy+HijAfBgNVHSMEGDAWgBQAJD+Q8mARTDTJ
a0/QqE7idy+HijAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQDa
4h9ocvyXBm+EosleeoCNA1wEuZHuFflZ64GEU5ZEugIgfUbJNCzZbuD2YWhDa1sU
JGeY0QWC+Vz91MGH7evs6GQ=
-----END CERTIFICATE-----`,
    'CN=kafkaesque-client',
  ],
  [
    `-----BEGIN CERTIFICATE-----
MIICATCCAaegAwIBAgIUPG86zM3R5C7OIHYKalLCuHCUJI4wCgYIKoZIzj0EAwIw
VjELMAkGA1UEBhMCREUxEzARBgNVBAoMCkFjbWUsIEluYy4xETAPBgNVBAsMCFRl
YW0rT3BzMR8wHQYDVQQDDBYgbGVhZCAieCIgIzE7IGE8Yj49Y1wgMB4XDTI2MTIw
MjA3MzA0NVoXDTM2MTEyOTA3MzA0NVowVjELMAkGA1UEBhMCREUxEzARBgNVBAoM
CkFjbWUsIEluYy4xETAPBgNVBAsMCFRlYW0rT3BzMR8wHQYDVQQDDBYgbGVhZCAi
eCIgIzE7IGE8Yj49Y1wgMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEfvDFv3cR
JreOo7dYraZaFMWxf92nGwnReK4hcSPA6YRTupVYhLCJgS9hOkoNF/EiPfhvCkvY
jjGDhWjY4KzT8KNTMFEwHQYDVR0OBBYEFF18NpciFM4DJ+riLBnI/nR9ziXPMB8G
A1UdIwQYMBaAFF18NpciFM4DJ+riLBnI/nR9ziXPMA8GA1UdEwEB/wQFMAMBAf8w
CgYIKoZIzj0EAwIDSAAwRQIhAOAQf0VHEFdXbT4e7njgB94OU6v+SiKjIdIesUww
qjHeAiBKSr/fNqBfXTNkiztbUlPt9sFAQvvPCJnB6yXmI/Unag==
-----END CERTIFICATE-----`,
    'CN=\\ lead \\"x\\" \\#1\\; a\\<b\\>\\=c\\\\\\ ,OU=Team\\+Ops,O=Acme\\, Inc.,C=DE',
  ],
  [
    `-----BEGIN CERTIFICATE-----
MIICJDCCAcmgAwIBAgIUXHNnWo64bJ/iNJdHP7aFv5rGa6UwCgYIKoZIzj0EAwIw
ZzEXMBUGCgmSJomT8ixkARkWB2V4YW1wbGUxDDAKBgNVBAgMA05SVzEOMAwGA1UE
BwwFS8O2bG4xHDAaBgkqhkiG9w0BCQEWDWpAZXhhbXBsZS5jb20xEDAOBgNVBAMM
B0rDvHJnZW4wHhcNMjYxMjAyMDczMDM3WhcNMzYxMTI5MDczMDM3WjBnMRcwFQYK
CZImiZPyLGQBGRYHZXhhbXBsZTEMMAoGA1UECAwDTlJXMQ4wDAYDVQQHDAVLw7Zs
bjEcMBoGCSqGSIb3DQEJARYNakBleGFtcGxlLmNvbTEQMA4GA1UEAwwHSsO8cmdl
bjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABFohD9I+H1yFlWO8dCBZ2Zc3uMva
x2VwcGELIgGZi/7y5l0H8YosHFkRJ/oYr2wtMGOLBwIHtVCCYs42hkb7GVOjUzBR
MB0GA1UdDgQWBBQuEwmp5uwdT9Q/iAJiJIlj7GG14DAfBgNVHSMEGDAWgBQuEwmp
5uwdT9Q/iAJiJIlj7GG14DAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kA
MEYCIQCTpevJNUvFytQKuK0yK3Jc/EZM6Qs05UoNUaLWAETcQAIhAKyCs3Geo93v
7FgMvIBpl6fZcFCTCGYJfOH07Oipi9p8
-----END CERTIFICATE-----`,
    'CN=Jürgen,1.2.840.113549.1.9.1=#160d6a406578616d706c652e636f6d,L=Köln,ST=NRW,DC=example',
  ],
  [
    `-----BEGIN CERTIFICATE-----
MIIBsjCCAVegAwIBAgIUegL/atVs8zfpZBkXoXHHgp2jJ/UwCgYIKoZIzj0EAwIw
LjEMMAoGA1UECgwDT3JnMR4wCgYDVQQDDANzdmMwEAYKCZImiZPyLGQBAQwCNDIw
HhcNMjYxMjAyMDczMDQ3WhcNMzYxMTI5MDczMDQ3WjAuMQwwCgYDVQQKDANPcmcx
HjAKBgNVBAMMA3N2YzAQBgoJkiaJk/IsZAEBDAI0MjBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABM7O1ByqpMEzxH0tdlyHNge8jOYi848reYTKbrGLYocsdqvrnkV7
X00KasFAyrYfMojQknRWXdchtEaH+J9fJwKjUzBRMB0GA1UdDgQWBBSixZWBJhU/
R+gs2OPIlK7L2RF5+jAfBgNVHSMEGDAWgBSixZWBJhU/R+gs2OPIlK7L2RF5+jAP
BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDuogsEx6V30TkpWswc
Dyh63kVjHuAzoHYWZmqdd5ynxwIhAIIYVKzd8v0lyBJEG7Nq4vppy23lmnxE83k9
1LgIffRF
-----END CERTIFICATE-----`,
    'CN=svc+UID=42,O=Org',
  ],
];

test.each(CERTS.map(([pem, java], i) => [i, pem, java] as const))('certificate %i: the subject as Java prints it', (_i, pem, java) => {
  expect(rfc2253Subject(new X509Certificate(pem).raw)).toBe(java);
});

test('SASL name first, then the certificate, then ANONYMOUS; IPv4-mapped addresses read as IPv4', () => {
  const cert = new X509Certificate(CERTS[0]![0]);
  expect(principalOf('alice', cert)).toBe('User:alice');
  expect(principalOf(null, cert)).toBe('User:CN=kafkaesque-client');
  expect(principalOf(null, null)).toBe(ANONYMOUS);
  expect(hostAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  expect(hostAddress('::1')).toBe('::1');
});
