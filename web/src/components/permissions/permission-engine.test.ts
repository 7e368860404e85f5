// The shared permission evaluation, run here too: the console's previews use the service's rules.
import "@keyhold/contract/permission-engine.test";
import "@keyhold/contract/permission-grid.test";
