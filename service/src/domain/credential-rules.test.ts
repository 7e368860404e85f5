// The contract's credential rules, run here too: the OIDC, Kubernetes and AWS logins refuse by them.
import "@keyhold/contract/credential-rules.test";
