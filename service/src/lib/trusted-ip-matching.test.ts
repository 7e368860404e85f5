// The contract's rule for trusted IPs, run here too: the service admits callers by it.
import "@keyhold/contract/trusted-ip-matching.test";
