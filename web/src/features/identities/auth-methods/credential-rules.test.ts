// The contract's credential rules, run here too: the credential tester marks each rule by them.
import "@keyhold/contract/credential-rules.test";
