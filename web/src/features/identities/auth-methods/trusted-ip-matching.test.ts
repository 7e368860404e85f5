// The contract's rule for trusted IPs, run here too: "Would this address pass?" answers by it.
import "@keyhold/contract/trusted-ip-matching.test";
