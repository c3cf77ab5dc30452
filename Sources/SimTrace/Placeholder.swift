// SimTrace
