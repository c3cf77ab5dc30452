// SimModels
