// One build of the user's code (see Tests/BuildFixtures/Ledger): the commit with LedgerCode.asserting.
import LedgerFixture
import SimRunKit

SimRun.main(scenarios: [ledgerScenario(.asserting), searchScenario(.asserting)])
