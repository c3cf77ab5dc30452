// SimRunKit
