// One build of the user's code (see Tests/BuildFixtures/Ledger): the commit with LedgerCode.moved.
import LedgerFixture
import SimRunKit

SimRun.main(scenarios: [ledgerScenario(.moved), searchScenario(.moved)])
