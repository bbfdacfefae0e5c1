/**
 * The sandbox Akahu's webhook signing key pair (key id {SANDBOX_SIGNING_KEY_ID}). Akahu signs each webhook with a
 * private RSA key and publishes the public one at GET /keys/{id}; the offline Akahu signs with this private key,
 * and our endpoint checks against this public one when no Akahu app is configured. Published here, so it is
 * accepted only outside production or in a demo (server/webhooks/verify.ts), as the other sandboxes' secrets are.
 */
export const SANDBOX_SIGNING_KEY_ID = 1;

export const SANDBOX_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAxoPs0VpTLntD9pfjrxTe
OAQXyUCVaauyH/8IAGlzC56HEWk1Xf7fKYEzvpGsYBtKp2UqcSaUrHaILCtJTB6p
Fy6nmvSfa5kReC2dLJ5OwvJBZI0NiUcqY/VaVMwSUTpeexcdezkZK2mNjHl1HTVq
8aKgfl9j1OtyEtHV5FS5jaT1Fb80aw8m4bq3qiicWE/F0CzjaQjWyJpxI0WEHC+y
MTW87TJ8+jNVm6qQNx0Jyzv53pp+JOFJTMe3tKAfYgAgWekbRYoAJx530cFbu2WH
um12STks1XaYHudQswgp7RIq3Ltnep8hHkqQ0d2fzE9g9rylC2GEVDO5Az/9RzQW
gwIDAQAB
-----END PUBLIC KEY-----`;

export const SANDBOX_PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDGg+zRWlMue0P2
l+OvFN44BBfJQJVpq7If/wgAaXMLnocRaTVd/t8pgTO+kaxgG0qnZSpxJpSsdogs
K0lMHqkXLqea9J9rmRF4LZ0snk7C8kFkjQ2JRypj9VpUzBJROl57Fx17ORkraY2M
eXUdNWrxoqB+X2PU63IS0dXkVLmNpPUVvzRrDybhureqKJxYT8XQLONpCNbImnEj
RYQcL7IxNbztMnz6M1WbqpA3HQnLO/nemn4k4UlMx7e0oB9iACBZ6RtFigAnHnfR
wVu7ZYe6bXZJOSzVdpge51CzCCntEircu2d6nyEeSpDR3Z/MT2D2vKULYYRUM7kD
P/1HNBaDAgMBAAECggEAHYK2HUcmr3W+nDVnMPtSr5QYLyBNNdjC0ZPZjioe4p7N
6G4x80e0yBg/Z3iDXgQgnHLjFNAN8Pdr9dj3e/vg2iPi4Zu06Utnd+yb/WqJPdzC
kN6RIRO1vwdVxt5RaMbbDcRZaxyJW9VEqBnUKaPrwoERB8hJcHkRy69q8xcPQHl+
hRmjkvOObF904cssmdyUpyal3b7WiNVEomB0Trd+w2vx1Bal4PMFsFUoEkXyz7dr
08MCZ8COo7X2ifpFYG8u6GQSD0vEsqFZZGM2oA/qa23UKBG8UmF0EoV+aPDXcTQq
xsJuPOnWN6Fx8c8JkZmX9itLjqeYYAaBtqFg6Olo5QKBgQDzsjl13eyHxPnySznq
QUPbgZVaIClVgY6QHm2lwfO2SS10NIWmiWqP3LCnXPJyVaY8ONUk4+BIGzXcV0p0
us42gfLL2rrfx2/vPHGOL+sxebdqnws501K3O8XPG0VK7iRkNTnbOjnRn1smJMsG
r2SxAgQvVeH8u1q7Mtg0C91g7QKBgQDQibzUJfhEVBTjjlw4KmGhFMMnrtWJ7mGR
YkEaAlFjB/qxRnOHegykLnIZ87GPLYc/g9Nm+gFm0xbm6itQAanvornthvSzwxJl
sd8kPMCFswVitXEde0FIgn8yg9md13wXOGqK8RqkXsSzu0aQNvc7mJ0+kZ0JnFG5
7MFmxAIXLwKBgQDOH/y8Npcfi7vCdmCpRMTpwOScE8ICghAc1K/32WKT17erp9U4
NNk+j/OXzGWB0fJG0+dtSZXmR6W6FtdyfqN3tVixlvQj3eRO3bhLBTsRYRuEAryT
D6zSMaux7yYgJ+f+HosuZESNixWk4NAdenNXyRXTF/iLNcmbt3jqJPL+TQKBgGQX
uGqbTu587QnL6reKoBGQxZrmb9gkcvA1GMpDEo1V5x3vksQT8L1dDacnMLJoR+JU
g8OJe+K+rt9mxiNAqTA8CsHXZNxjZREqrs/V2RJTOuKF9CUSY+NJv4OfhXQdWZJL
odfOodsDIaai3Nubhk80kUTW32kdfpye5rVMnzRBAoGBALew+J8pRhPAb166ZI/R
GxzRnhOn8w1pN9BRC/xW+PwTuQi0JIhbfk7ELxWifIKRuzzx3BEZDpj8W4jKD+rh
yjDKIdH/zD7tKylVar8ai6iwTnOiB8yTqRhW6GA0Xc/Tml1HKxujJF3fzaBWU0kk
yrzAxpNeI+Ai850zOViOVxnP
-----END PRIVATE KEY-----`;
