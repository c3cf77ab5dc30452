print("simrun")
