"""webferret.present"""
