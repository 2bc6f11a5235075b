from bunting import Bunting
with Bunting.spawn(storage=":memory:") as bunting:
    flags, banners = bunting.subscribe("featureFlags"), bunting.subscribe("banners")
    bunting.change_user("ada")
    print(flags.wait_for(type="DATA_UPDATED"), banners.wait_for(type="DATA_UPDATED"), sep="\n")
