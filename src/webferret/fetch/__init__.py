"""webferret.fetch"""
