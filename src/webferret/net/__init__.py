"""webferret.net"""
