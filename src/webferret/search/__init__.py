"""webferret.search"""
