// One build of the user's code (see Tests/BuildFixtures/Ledger): the commit with LedgerCode.buggy. It
// also carries the crash identity test's `crash-site`, the campaign entry test's `charged-crash` and
// the replay article's `stale-search`.
import LedgerFixture
import SimRunKit

SimRun.main(scenarios: [ledgerScenario(.buggy), searchScenario(.buggy), crashSite, chargedCrash, staleSearch])
